import FoundationEssentials
import NIOConcurrencyHelpers

/// Every live capture of the process, so that on SIGINT or SIGTERM each can be flushed and
/// closed (under a name that says it was interrupted) before the process exits.
public final class CaptureRegistry: @unchecked Sendable {
    public static let shared = CaptureRegistry()
    private let lock = NIOLock()
    private var captures: [ObjectIdentifier: PcapCapture] = [:]

    func add(_ capture: PcapCapture) { lock.withLock { captures[ObjectIdentifier(capture)] = capture } }

    func remove(_ capture: PcapCapture) { _ = lock.withLock { captures.removeValue(forKey: ObjectIdentifier(capture)) } }

    /// Stops every live capture; each file is kept as `NAME.interrupted.pcap`. Returns their paths.
    @discardableResult
    public func stopAll() -> [String] {
        let live = lock.withLock { Array(captures.values) }
        return live.map { $0.stop(interrupted: true) ; return $0.interruptedPath }
    }
}
