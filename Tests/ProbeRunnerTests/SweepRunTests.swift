@testable import ProbeRunner
import Testing

/// Which `split sweep` send a run cuts, and where.
struct SweepRunTests {
    @Test func onlyTheFirstSweepIsCutAndOnlyInsideTheMessage() {
        var discovery = SweepRun(.discover)
        #expect(discovery.cut(forMessageOf: 5) == .whole)
        #expect(discovery.sweptLength == 5)
        #expect(discovery.cut(forMessageOf: 9) == .notFirst)
        #expect(discovery.sweptLength == 5, "the first sweep's length stands")

        var inside = SweepRun(.offset(4))
        #expect(inside.cut(forMessageOf: 5) == .at(4))
        #expect(inside.cut(forMessageOf: 5) == .notFirst)

        // The message of this run may be shorter than the discovery run's (a variable, a file).
        var atTheEnd = SweepRun(.offset(5))
        #expect(atTheEnd.cut(forMessageOf: 5) == .whole)
        #expect(atTheEnd.sweptLength == 5)
    }
}
