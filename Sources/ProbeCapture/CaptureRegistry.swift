import FoundationEssentials
import Synchronization

/// Every live capture of the process, so that on SIGINT or SIGTERM each can be flushed and
/// closed (under a name that says it was interrupted) before the process exits.
package final class CaptureRegistry: Sendable {
    package static let shared = CaptureRegistry()
    private let captures = Mutex<[ObjectIdentifier: PcapCapture]>([:])

    func add(_ capture: PcapCapture) { captures.withLock { $0[ObjectIdentifier(capture)] = capture } }

    func remove(_ capture: PcapCapture) { _ = captures.withLock { $0.removeValue(forKey: ObjectIdentifier(capture)) } }

    /// Stops every live capture; each file is kept as `NAME.interrupted.pcap`. Returns their paths.
    @discardableResult
    package func stopAll() -> [String] {
        let live = captures.withLock { Array($0.values) }
        return live.map { $0.stop(interrupted: true) ; return $0.interruptedPath }
    }
}
