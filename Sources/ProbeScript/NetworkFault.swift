/// A fault of a `network`'s link (`n: loss 10% burst 3 downstream`), on whole IP packets below
/// the subject's TCP, from that step on. Upstream is toward the subject, in the namespace.
package struct NetworkFault: Sendable, Hashable {
    package enum Change: Sendable, Hashable {
        /// Drop this share of the packets (percent); a loss drops `burst` packets in a row.
        case loss(Argument<Double>, burst: Argument<Int>?)
        /// Hold each packet this long, give or take up to `jitter`.
        case delay(Argument<Duration>, jitter: Argument<Duration>?)
        /// Hold back this share of the packets (percent) by `gap`, so later ones overtake them.
        case reorder(Argument<Double>, gap: Argument<Duration>?)
        /// Send this share of the packets (percent) twice.
        case duplicate(Argument<Double>)
        /// At most this many bytes a second; packets queue behind the rate.
        case rate(Argument<Int>)
        /// Drop every packet until `heal`.
        case partition
        /// End a partition.
        case heal
        /// Remove every fault.
        case clear
    }

    package var change: Change
    /// The direction it acts on (upstream: toward the subject); nil for both.
    package var direction: ProxyDirection?

    package init(change: Change, direction: ProxyDirection?) {
        self.change = change
        self.direction = direction
    }

    /// The network fault a proxy fault's words make (`n: delay 50ms`, `n: rate 1MiB/s`,
    /// `n: clear`, which parse as a proxy's); nil for a fault only a proxy has.
    package init?(_ fault: ProxyFault) {
        switch fault.change {
        case .delay(let delay, let jitter): change = .delay(delay, jitter: jitter)
        case .rate(let rate): change = .rate(rate)
        case .clear: change = .clear
        case .slice, .hold, .release, .cut, .reset, .cutAfter: return nil
        }
        direction = fault.direction
    }

    /// The spellings of the faults a network takes, for messages.
    package static let spellings = "loss, delay, reorder, duplicate, rate, partition, heal or clear"

    var templates: [Template] {
        switch change {
        case .loss(let share, let burst): return share.templates + burst.templates
        case .delay(let delay, let jitter): return delay.templates + jitter.templates
        case .reorder(let share, let gap): return share.templates + gap.templates
        case .duplicate(let share): return share.templates
        case .rate(let rate): return rate.templates
        case .partition, .heal, .clear: return []
        }
    }
}
