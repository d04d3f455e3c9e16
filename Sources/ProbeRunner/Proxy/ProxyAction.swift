import NIOCore
import ProbeScript

/// What a proxy fault step does, its arguments resolved: close the links now (and later ones
/// as they come), or change how a direction forwards. Arguments out of range throw a
/// `ProxyFailure`.
enum ProxyAction: Equatable {
    case cut, reset
    case change(ProxyFaults.Change)

    init(_ fault: ProxyFault, _ arguments: some ArgumentResolver) throws {
        func duration(_ argument: Argument<Duration>) throws -> TimeAmount {
            try arguments.resolve(argument, "a duration", Quantity.duration).timeAmount
        }
        switch fault.change {
        case .cut: self = .cut
        case .reset: self = .reset
        case .delay(let delay, let jitter): self = .change(.delay(try duration(delay), jitter: try jitter.map(duration) ?? .zero))
        case .rate(let rate):
            let value = try arguments.resolve(rate, "a rate", Quantity.rate)
            guard value > 0 else { throw ProxyFailure.rateBelowOne }
            self = .change(.rate(value))
        case .slice(let min, let max, let every):
            let (low, high) = (try arguments.resolve(min, "a size", Quantity.integer), try arguments.resolve(max, "a size", Quantity.integer))
            guard low >= 1, low <= high else { throw ProxyFailure.badSlice(low: low, high: high) }
            // Without `every`, slices leave the split gap apart: back to back, a reader takes them together.
            self = .change(.slice(min: low, max: high, every: try every.map(duration) ?? Duration.defaultSplitGap.timeAmount))
        case .hold: self = .change(.hold)
        case .release: self = .change(.release)
        case .cutAfter(let count): self = .change(.cutAfter(try arguments.resolve(count, "a byte count", Quantity.integer)))
        case .clear: self = .change(.clear)
        }
    }
}
