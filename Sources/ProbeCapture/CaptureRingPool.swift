import FoundationEssentials
import NIOConcurrencyHelpers

/// Idle capture rings of this process. A capture takes one with its interface, sizes and snap length, or
/// opens one when none is idle, and gives it back when it stops; so a run holds at most as
/// many rings as it has captures at once, and pays each ring's set-up only once.
final class CaptureRingPool: @unchecked Sendable {
    static let shared = CaptureRingPool()
    private let lock = NIOLock()
    private var idle: [CaptureRing] = []
    private var openedCount = 0

    /// How many rings this process has opened (rather than reused).
    var opened: Int { lock.withLock { openedCount } }

    func take(interface: String, bufferSize: Int, snapLength: Int) throws -> CaptureRing {
        let reused = lock.withLock { () -> CaptureRing? in
            guard let index = idle.firstIndex(where: {
                $0.interface == interface && $0.bufferSize == bufferSize && $0.snapLength == snapLength
            }) else { return nil }
            return idle.remove(at: index)
        }
        if let reused { return reused }
        let ring = try CaptureRing(interface: interface, bufferSize: bufferSize, snapLength: snapLength)
        lock.withLock { openedCount += 1 }
        return ring
    }

    /// Resets the ring to keep nothing, empties it and keeps it for the next capture; a ring
    /// whose filter cannot be reset is closed instead.
    func giveBack(_ ring: CaptureRing) {
        guard (try? ring.setFilter(ports: [])) != nil else { return }
        ring.discardPending()
        lock.withLock { idle.append(ring) }
    }
}
