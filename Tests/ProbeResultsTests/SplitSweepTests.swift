import Testing
@testable import ProbeResults

/// Which offsets a `split sweep` runs, and how its report reads.
struct SplitSweepTests {
    /// The summary lists up to 20 failing offsets, and says when there are more.
    @Test func aSweepSummaryListsTwentyFailingOffsetsAtMost() {
        func summary(failing: Int) -> String {
            let plan = SplitSweep(messageLength: 31, limit: 256)
            return SweepReport(plan: plan, outcomes: plan.offsets.map { ($0, $0 > failing, .zero) }).summary
        }
        #expect(summary(failing: 20) == "split sweep over a 31-byte message: 10 of 30 offsets pass; failing offsets: "
                + (1...20).map(String.init).joined(separator: ", ") + "; the smallest failing offset is 1")
        #expect(summary(failing: 21).contains("failing offsets: " + (1...20).map(String.init).joined(separator: ", ") + ", …; the smallest"))
        #expect(summary(failing: 0) == "split sweep over a 31-byte message: 30 of 30 offsets pass")
    }

    @Test func aSweepLimitSamplesOffsets() async throws {
        let plan = SplitSweep(messageLength: 1000, limit: 256)
        #expect(plan.sampled)
        #expect(plan.offsets.count <= 256 && plan.offsets.count >= 250)
        #expect(plan.offsets.first == 1 && plan.offsets.last == 999)
        #expect(plan.offsets == plan.offsets.sorted())
        let small = SplitSweep(messageLength: 11, limit: 256)
        #expect(!small.sampled && small.offsets == Array(1...10))
        // Exactly at the limit every offset runs; past it, half dense from 1 and half spread to the end.
        let atLimit = SplitSweep(messageLength: 257, limit: 256)
        #expect(!atLimit.sampled && atLimit.offsets == Array(1...256))
        let spread = SplitSweep(messageLength: 21, limit: 10)
        #expect(spread.sampled && spread.offsets == [1, 2, 3, 4, 5, 6, 9, 13, 16, 20], "\(spread.offsets)")
        #expect(SplitSweep(messageLength: 11, limit: 2).offsets == [1, 10], "the first and the last, and no more than the limit")
        #expect(SplitSweep(messageLength: 11, limit: 1).offsets == [1])
    }
}
