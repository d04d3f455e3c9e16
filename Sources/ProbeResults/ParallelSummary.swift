import Histogram
import ProbeScript

/// What a `parallel` block did: how many copies passed, and the latency of their expects.
public struct ParallelSummary: Sendable {
    public var location: SourceLocation
    public var copies: Int
    public var passed: Int
    public var failed: Int { copies - passed }
    /// Expect latencies across all copies (nil when no expect ran).
    public var p50: Duration?
    public var p90: Duration?
    public var p99: Duration?
    public var max: Duration?
    public var expects: Int

    public init(location: SourceLocation, copies: Int, passed: Int, latencies: [Duration]) {
        let recorder = LatencyRecorder()
        latencies.forEach(recorder.record)
        self.init(location: location, copies: copies, passed: passed, latencies: recorder.recorded)
    }

    /// The percentiles of `latencies` (microseconds), each the smallest recorded value that
    /// at least that fraction of expects took no longer than, to the histogram's precision.
    public init(location: SourceLocation, copies: Int, passed: Int, latencies: Histogram<UInt64>) {
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

    public var description: String {
        var text = "\(passed) of \(copies) copies passed, \(failed) failed"
        if let p50, let p90, let p99, let max {
            let f = DurationFormat.short
            text += "; expect latency over \(expects) expects: p50 \(f(p50)), p90 \(f(p90)), p99 \(f(p99)), max \(f(max))"
        }
        return text
    }
}
