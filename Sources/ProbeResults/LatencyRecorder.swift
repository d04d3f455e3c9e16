import Histogram
import Synchronization

/// The expect latencies of one `parallel` block, recorded by all its copies into one HDR
/// histogram (microseconds, three significant digits): its size does not grow with the number
/// of expects, so a long soak of many copies runs in constant memory.
package final class LatencyRecorder: Sendable {
    private let histogram = Mutex(Histogram<UInt64>(numberOfSignificantValueDigits: .three))

    package init() {}

    package func record(_ latency: Duration) {
        let microseconds = UInt64(max(0, latency / .microseconds(1)).rounded())
        histogram.withLock { _ = $0.record(microseconds) }
    }

    /// Adds every latency of `other`: a nested block's latencies count in the block around it.
    package func add(_ other: LatencyRecorder) {
        let recorded = other.recorded
        histogram.withLock { $0.add(recorded) }
    }

    package var recorded: Histogram<UInt64> { histogram.withLock { $0 } }
}
