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
            log.append(at: .milliseconds(index), nil) {
                builds.count += 1
                return "step \(index)"
            }
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
        for index in 0..<1200 { log.append(at: .milliseconds(index), nil) { "step \(index)" } }
        #expect(log.entries.map(\.message) == (0..<1200).map { "step \($0)" })
        #expect(log.omitted == 0)
    }
}
