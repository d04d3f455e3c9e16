import Histogram
import NIOConcurrencyHelpers

/// The expect latencies of one `parallel` block, recorded by all its copies into one HDR
/// histogram (microseconds, three significant digits): its size does not grow with the number
/// of expects, so a long soak of many copies runs in constant memory.
final class LatencyRecorder: @unchecked Sendable {
    private let lock = NIOLock()
    private var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)

    func record(_ latency: Duration) {
        let microseconds = UInt64(max(0, latency / .microseconds(1)).rounded())
        lock.withLock { _ = histogram.record(microseconds) }
    }

    /// Adds every latency of `other`: a nested block's latencies count in the block around it.
    func add(_ other: LatencyRecorder) {
        let recorded = other.recorded
        lock.withLock { histogram.add(recorded) }
    }

    var recorded: Histogram<UInt64> { lock.withLock { histogram } }
}
