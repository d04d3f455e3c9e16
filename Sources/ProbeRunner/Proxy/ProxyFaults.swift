import NIOCore
import ProbeHost

/// How one direction of a proxy forwards, as the fault steps so far have set it.
struct ProxyFaults: Sendable {
    var delay = TimeAmount.zero
    var jitter = TimeAmount.zero
    /// Bytes a second; nil for no limit.
    var rate: Int?
    /// Writes of `min` to `max` bytes, `every` apart.
    var slice: (min: Int, max: Int, every: TimeAmount)?
    var held = false
    /// Bytes left to forward before the connection is cut.
    var cutAfter: Int?

    /// What a fault step does to a direction, its arguments resolved.
    enum Change: Sendable, Equatable {
        case delay(TimeAmount, jitter: TimeAmount)
        case rate(Int)
        case slice(min: Int, max: Int, every: TimeAmount)
        case hold, release
        case cutAfter(Int)
        case clear
    }

    mutating func apply(_ change: Change) {
        switch change {
        case .delay(let delay, let jitter): (self.delay, self.jitter) = (delay, jitter)
        case .rate(let rate): self.rate = rate
        case .slice(let min, let max, let every): slice = (min, max, every)
        case .hold: held = true
        case .release: held = false
        case .cutAfter(let count): cutAfter = count
        case .clear: self = ProxyFaults()
        }
    }

    /// The largest piece a chunk is cut into: a slice's draw, or under a rate about a
    /// twentieth of a second's worth, so the rate holds within a chunk.
    func pieceSize(_ random: inout SeededGenerator) -> Int? {
        if let slice { return Int.random(in: slice.min...slice.max, using: &random) }
        if let rate { return max(1, min(64 * 1024, rate / 20)) }
        return nil
    }
}
