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
        self.location = location
        self.copies = copies
        self.passed = passed
        let sorted = latencies.sorted()
        expects = sorted.count
        func percentile(_ fraction: Double) -> Duration? {
            guard !sorted.isEmpty else { return nil }
            let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank))]
        }
        p50 = percentile(0.5)
        p90 = percentile(0.9)
        p99 = percentile(0.99)
        max = sorted.last
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
