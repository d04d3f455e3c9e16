import Foundation
import ProbeCapture

/// A capture that records nothing and reports whatever ring fill the test sets: it stands in
/// for a capture whose writer has fallen behind.
final class ScriptedCapture: PacketCapture, @unchecked Sendable {
    let path = "/nonexistent/scripted.pcap"
    private let lock = NSLock()
    private var fill: Double
    /// How many times the fill was asked for.
    private(set) var fillReads = 0

    init(fill: Double) {
        self.fill = fill
    }

    /// Sets the fill now, or after `delay` from another thread.
    func setFill(_ value: Double, after delay: Duration = .zero) {
        guard delay > .zero else { return lock.withLock { fill = value } }
        Thread.detachNewThread { [self] in
            Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            lock.withLock { fill = value }
        }
    }

    func ringFill() -> Double {
        lock.withLock {
            fillReads += 1
            return fill
        }
    }

    func watch(port: Int) throws {}
    func sync() {}
    func stats() -> CaptureStats { .empty }
    func segments(payloadPrefix: Int) throws -> [TCPSegment] { [] }
    func stop() -> CaptureStats { .empty }
}
