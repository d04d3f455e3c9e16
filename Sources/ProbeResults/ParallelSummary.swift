import Histogram
import ProbeScript

/// What a `parallel` block did: how many copies passed, and the latency of their expects.
package struct ParallelSummary: Sendable {
    package var location: SourceLocation
    package var copies: Int
    package var passed: Int
    package var failed: Int { copies - passed }
    /// Expect latencies across all copies (nil when no expect ran).
    package var p50: Duration?
    package var p90: Duration?
    package var p99: Duration?
    package var max: Duration?
    package var expects: Int

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
        expects = Int(latencies.totalCount)
        func percentile(_ percent: Double) -> Duration? {
            expects == 0 ? nil : .microseconds(Int64(latencies.valueAtPercentile(percent)))
        }
        p50 = percentile(50)
        p90 = percentile(90)
        p99 = percentile(99)
        max = expects == 0 ? nil : .microseconds(Int64(latencies.maxRecorded))
    }

    package var description: String {
        var text = "\(passed) of \(copies) copies passed, \(failed) failed"
        if let p50, let p90, let p99, let max {
            let f = DurationFormat.short
            text += "; expect latency over \(expects) expects: p50 \(f(p50)), p90 \(f(p90)), p99 \(f(p99)), max \(f(max))"
        }
        return text
    }
}
