/// One direction of a network's link: decides, for each packet as it comes, when it leaves
/// (never, once, or twice), by its faults, and counts what it did. Pure: the link's loop keeps
/// the packets and the clock. Times are nanoseconds of one monotonic clock.
package struct LinkDirection: Sendable {
    /// What becomes of one packet.
    package enum Verdict: Equatable, Sendable {
        case drop
        /// It leaves at `at`; a second copy too when `twice`.
        case send(at: Int64, twice: Bool)
    }

    /// The most packets a direction holds at once (netem's default limit): a rate of 1 byte a
    /// second or a delay of minutes drops what comes beyond it rather than growing without end.
    package static let queueLimit = 1000

    package var faults = LinkFaults()
    package private(set) var counts = LinkCounts()
    /// Packets still to drop of a loss burst.
    private var burstLeft = 0
    /// When the last packet that keeps its order leaves: jitter does not reorder, `reorder` does.
    private var lastRelease: Int64 = 0
    /// When the rate lets the next packet start.
    private var rateFree: Int64 = 0

    package init() {}

    /// The verdict on a packet of `size` bytes that comes at `now`, with `queued` packets of
    /// this direction waiting.
    package mutating func admit(size: Int, at now: Int64, queued: Int, using random: inout some RandomNumberGenerator) -> Verdict {
        counts.packets += 1
        counts.bytes += size
        if faults.partitioned || burstLeft > 0 {
            burstLeft = max(0, burstLeft - 1)
            counts.dropped += 1
            return .drop
        }
        if faults.loss > 0, Double.random(in: 0..<1, using: &random) < faults.loss {
            burstLeft = faults.lossBurst - 1
            counts.dropped += 1
            return .drop
        }
        if queued >= Self.queueLimit {
            counts.overflowed += 1
            return .drop
        }
        var release = now
        if faults.delay > 0 || faults.jitter > 0 {
            let spread = faults.jitter > 0 ? Int64.random(in: -faults.jitter...faults.jitter, using: &random) : 0
            release += max(0, faults.delay + spread)
        }
        if let rate = faults.rate {
            let start = max(release, rateFree)
            rateFree = start + Int64(Double(size) / Double(rate) * 1e9)
            release = rateFree
        }
        if faults.reorder > 0, Double.random(in: 0..<1, using: &random) < faults.reorder {
            release += faults.reorderGap
            counts.reordered += 1
        } else {
            release = max(release, lastRelease)
            lastRelease = release
        }
        if release > now { counts.delayed += 1 }
        let twice = faults.duplicate > 0 && Double.random(in: 0..<1, using: &random) < faults.duplicate
        if twice { counts.duplicated += 1 }
        return .send(at: release, twice: twice)
    }
}
