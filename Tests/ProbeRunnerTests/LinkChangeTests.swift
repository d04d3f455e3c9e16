import ProbeHost
@testable import ProbeRunner
import ProbeScript
import Testing

/// What each network step changes of a link's faults, and only that: `heal` ends a partition
/// and leaves every other fault as it was (a delay stays), `partition` adds one to them, and
/// `clear` ends them all. Over several sets of faults.
@Suite struct LinkChangeTests {
    private static func faults(_ index: Int) -> LinkFaults {
        var faults = LinkFaults()
        switch index {
        case 0: faults.delay = 50_000_000
        case 1: (faults.delay, faults.jitter, faults.loss, faults.lossBurst) = (10_000_000, 2_000_000, 0.1, 3)
        case 2: (faults.reorder, faults.reorderGap, faults.duplicate, faults.rate) = (0.2, 7_000_000, 0.05, 65536)
        default: break
        }
        return faults
    }

    private static func applying(_ change: NetworkFault.Change, to faults: LinkFaults) throws -> LinkFaults {
        var changed = faults
        try LinkChange(NetworkFault(change: change, direction: nil), LiteralArguments()).change(&changed)
        return changed
    }

    @Test(arguments: 0..<4)
    func healEndsThePartitionAndKeepsTheRest(_ index: Int) throws {
        let before = Self.faults(index)
        let partitioned = try Self.applying(.partition, to: before)
        var expected = before
        expected.partitioned = true
        #expect(partitioned == expected, "partition changes nothing else")
        #expect(try Self.applying(.heal, to: partitioned) == before, "heal gives back the faults as they were")
        #expect(try Self.applying(.clear, to: partitioned) == LinkFaults(), "clear ends every fault")
    }
}
