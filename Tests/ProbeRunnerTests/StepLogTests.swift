@testable import ProbeRunner
import Testing

/// The bounded step log builds a message only for an entry it keeps.
@Suite struct StepLogTests {
    /// Counts the messages built.
    private final class Builds {
        var count = 0
    }

    @Test func theEntriesLetGoNeverBuildTheirMessages() {
        var log = StepLog()
        let builds = Builds()
        let total = StepLog.headLimit + StepLog.tailLimit + 500
        for index in 0..<total {
            _ = log.append(atNanoseconds: Int64(index) * 1_000_000, nil, .closure {
                builds.count += 1
                return "step \(index)"
            })
        }
        #expect(builds.count == StepLog.headLimit, "the first entries build at once, the latest wait")
        let entries = log.entries
        #expect(builds.count == StepLog.headLimit + StepLog.tailLimit, "the 500 let go never built theirs")
        #expect(entries.count == StepLog.headLimit + 1 + StepLog.tailLimit)
        #expect(entries[StepLog.headLimit - 1].message == "step 999")
        #expect(entries[StepLog.headLimit].message.hasPrefix("… 500 steps not kept"))
        #expect(entries[StepLog.headLimit + 1].message == "step 1500")
        #expect(entries.last?.message == "step \(total - 1)")
        #expect(entries.map(\.offset) == entries.map(\.offset).sorted())
    }

    @Test func aShortLogKeepsEveryEntryInOrder() {
        var log = StepLog()
        for index in 0..<1200 { _ = log.append(atNanoseconds: Int64(index) * 1_000_000, nil, .closure { "step \(index)" }) }
        #expect(log.entries.map(\.message) == (0..<1200).map { "step \($0)" })
        #expect(log.omitted == 0)
    }

    /// An entry still to be built may hold the object that keeps what it shows, an expect's
    /// step, which holds the run: taking the log lets go of them all.
    @Test func takingTheLogLetsGoOfWhatItsEntriesHeld() {
        var record = RunRecord(keepsLog: true)
        weak var held: Builds?
        do {
            let builds = Builds()
            held = builds
            for index in 0..<(StepLog.headLimit + 10) {
                _ = record.log(atNanoseconds: Int64(index) * 1_000_000, nil, .closure { [builds] in "step \(index) of \(builds.count)" })
            }
        }
        #expect(held != nil, "the latest entries hold their object until the log is read")
        let entries = record.takeLog()
        #expect(entries.count == StepLog.headLimit + 10)
        #expect(held == nil, "taken, the log holds nothing")
        #expect(record.takeLog().isEmpty)
    }

    /// A step's object that logs itself.
    private final class Step: LoggedStep {
        let index: Int
        init(_ index: Int) { self.index = index }
        var logMessage: String { "step \(index)" }
        func letGo() {}
    }

    /// The log hands back a step's object once it no longer needs it: at once while it builds
    /// messages as they come, and as its ring lets the entry go later; never a closure's entry.
    @Test func theLogHandsBackTheStepsItNoLongerNeeds() {
        var log = StepLog()
        var handedBack: [Int?] = []
        let total = StepLog.headLimit + StepLog.tailLimit + 6
        for index in 0..<total {
            // Every third entry is a closure's, the others a step's object.
            let message: StepLog.Message = index % 3 == 2 ? .closure { "step \(index)" } : .step(Step(index))
            handedBack.append(log.append(atNanoseconds: Int64(index) * 1_000_000, nil, message).map { ($0 as! Step).index })
        }
        let head = Array(handedBack[..<StepLog.headLimit])
        #expect(head == (0..<StepLog.headLimit).map { $0 % 3 == 2 ? nil : $0 }, "built at once, each step's object comes back at once")
        #expect(handedBack[StepLog.headLimit..<(StepLog.headLimit + StepLog.tailLimit)].allSatisfy { $0 == nil }, "kept unbuilt, none comes back")
        let evicted = Array(handedBack[(StepLog.headLimit + StepLog.tailLimit)...])
        #expect(evicted == (StepLog.headLimit..<(StepLog.headLimit + 6)).map { $0 % 3 == 2 ? nil : $0 }, "the ring's oldest, as it lets them go")
        let entries = log.entries
        #expect(entries.last?.message == "step \(total - 1)")
        #expect(entries[StepLog.headLimit + 1].message == "step \(StepLog.headLimit + 6)")
    }
}
