import Histogram
import ProbeScript

/// What a `parallel` block did: how many copies passed, and the latency of their expects.
package struct ParallelSummary: Sendable {
    package var location: SourceLocation
    /// The copies it ran: all of the block's, or under `--part` the part's share.
    package var copies: Int
    package var passed: Int
    /// Under `--part`: which part ran it, and its share of the whole block.
    package var share: Share?

    /// A part's share of a block: its copies are `firstCopy ..< firstCopy + copies` of `wholeBlock`.
    package struct Share: Sendable, Equatable {
        package var part: String
        package var firstCopy: Int
        package var wholeBlock: Int

        package init(part: String, firstCopy: Int, wholeBlock: Int) {
            self.part = part
            self.firstCopy = firstCopy
            self.wholeBlock = wholeBlock
        }
    }
    package var failed: Int { copies - passed }
    /// Expect latencies across all copies (nil when no expect ran).
    package var p50: Duration? { latency(atPercentile: 50) }
    package var p90: Duration? { latency(atPercentile: 90) }
    package var p99: Duration? { latency(atPercentile: 99) }
    package var p999: Duration? { latency(atPercentile: 99.9) }
    package var max: Duration? { latency(atPercentile: 100) }
    package var expects: Int { Int(latencies.totalCount) }
    /// Every expect's latency, in microseconds: what `assert latency` reads, and what parts of
    /// one load add up.
    package var latencies: Histogram<UInt64>

    package init(location: SourceLocation, copies: Int, passed: Int, latencies: [Duration]) {
        let recorder = LatencyRecorder()
        latencies.forEach(recorder.record)
        self.init(location: location, copies: copies, passed: passed, latencies: recorder.recorded)
    }

    /// The percentiles of `latencies` (microseconds), each the smallest recorded value that
    /// at least that fraction of expects took no longer than, to the histogram's precision.
    package init(location: SourceLocation, copies: Int, passed: Int, latencies: Histogram<UInt64>) {
        self.location = location
        self.copies = copies
        self.passed = passed
        self.latencies = latencies
    }

    /// The latency that `percentile` percent of the expects took no longer than (100: the
    /// longest), to the histogram's precision; nil when no expect ran.
    package func latency(atPercentile percentile: Double) -> Duration? {
        guard expects > 0 else { return nil }
        return .microseconds(Int64(percentile >= 100 ? latencies.maxRecorded : latencies.valueAtPercentile(percentile)))
    }

    /// How many copies passed, or failed.
    package func count(_ outcome: ParallelAssertion.CopyOutcome) -> Int {
        outcome == .passed ? passed : failed
    }

    /// Whether the copies of `outcome` compare by `op` with `percent` of all copies: in whole
    /// numbers (millionths of a percent), so 999 of 1,000 is exactly 99.9%.
    package func holds(_ outcome: ParallelAssertion.CopyOutcome, _ op: ComparisonOperator, share percent: Double) -> Bool {
        op.holds(count(outcome) * 100_000_000, Int((percent * 1_000_000).rounded()) * copies)
    }

    package var description: String {
        if let share, copies == 0 { return "no copy of \(share.wholeBlock) falls to part \(share.part)" }
        var text = "\(passed) of \(copies) copies passed, \(failed) failed"
        if let share {
            text += " (part \(share.part): copies \(share.firstCopy) to \(share.firstCopy + copies - 1) of \(share.wholeBlock))"
        }
        if let p50, let p90, let p99, let max {
            let f = DurationFormat.short
            text += "; expect latency over \(expects) expects: p50 \(f(p50)), p90 \(f(p90)), p99 \(f(p99)), max \(f(max))"
        }
        return text
    }
}
