/// Which way traffic goes through a proxy, in toxiproxy's words.
package enum ProxyDirection: String, Sendable, Hashable, CaseIterable {
    /// Client → server.
    case upstream
    /// Server → client.
    case downstream
}

/// A proxy step that changes how it forwards (`p: delay 50ms downstream`), from that step on,
/// for its connections open now and later.
package struct ProxyFault: Sendable, Hashable {
    package enum Change: Sendable, Hashable {
        /// Forward each chunk this late, give or take up to `jitter`.
        case delay(Argument<Duration>, jitter: Argument<Duration>?)
        /// At most this many bytes a second.
        case rate(Argument<Int>)
        /// Forward in writes of `min` to `max` bytes (seeded), `every` apart.
        case slice(min: Argument<Int>, max: Argument<Int>, every: Argument<Duration>?)
        /// Stop reading and forwarding: the windows fill.
        case hold
        /// Forward again, what was held first.
        case release
        /// Close the connections (FIN).
        case cut
        /// Abort the connections (RST).
        case reset
        /// Close once this many more bytes have been forwarded.
        case cutAfter(Argument<Int>)
        /// Remove every fault.
        case clear
    }

    package var change: Change
    /// The direction it acts on; nil for both.
    package var direction: ProxyDirection?

    package init(change: Change, direction: ProxyDirection?) {
        self.change = change
        self.direction = direction
    }

    var templates: [Template] {
        switch change {
        case .delay(let delay, let jitter): return delay.templates + jitter.templates
        case .rate(let rate): return rate.templates
        case .slice(let min, let max, let every): return min.templates + max.templates + every.templates
        case .cutAfter(let count): return count.templates
        case .hold, .release, .cut, .reset, .clear: return []
        }
    }
}
