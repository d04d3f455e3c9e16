import Foundation
import ProbeCapture

/// A capture that records nothing and reports whatever ring fill the test sets: it stands in
/// for a capture whose writer has fallen behind.
final class ScriptedCapture: PacketCapture, @unchecked Sendable {
    let path = "/nonexistent/scripted.pcap"
    private let lock = NSLock()
    private var fill: Double
    /// After this many more reads of the fill, it becomes `later` (a writer catching up).
    private var readsLeft: Int
    private let later: Double
    let ringSlots: Int

    /// Reports `fill`, and `later` once the fill has been read `reads` times (never by default):
    /// a hold rechecks every millisecond, so the reads count out how long it lasts, however
    /// slowly the run gets to it.
    init(fill: Double, forReads reads: Int = .max, then later: Double = 0, slots: Int = 4096) {
        ringSlots = slots
        self.fill = fill
        self.readsLeft = reads
        self.later = later
    }

    func setFill(_ value: Double) {
        lock.withLock { fill = value }
    }

    func ringFill() -> Double {
        lock.withLock {
            if readsLeft == 0 { fill = later } else { readsLeft -= 1 }
            return fill
        }
    }

    func watch(port: Int) throws {}
    func claim(probePort: Int, peerPort: Int) {}
    func sync() {}
    func stats() -> CaptureStats { .empty }
    func segments(payloadPrefix: Int) throws -> [TCPSegment] { [] }
    func stop() -> CaptureStats { .empty }
}
