import ProbeHost
import ProbeResults
import ProbeScript

/// A network fault with its arguments resolved, ready to change a link's faults.
struct LinkChange {
    let direction: PacketLink.Direction?
    let change: (inout LinkFaults) -> Void

    init(_ fault: NetworkFault, _ resolver: some ArgumentResolver) throws {
        switch fault.direction {
        case .upstream?: direction = .upstream
        case .downstream?: direction = .downstream
        case nil: direction = nil
        }
        func nanoseconds(_ argument: Argument<Duration>) throws -> Int64 {
            let duration = try resolver.resolve(argument, "a duration", Quantity.duration)
            return duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        }
        func share(_ argument: Argument<Double>) throws -> Double {
            try resolver.resolve(argument, "a share of the packets", Quantity.percent) / 100
        }
        switch fault.change {
        case .loss(let loss, let burst):
            let (value, run) = (try share(loss), try burst.map { try resolver.resolve($0, "a number of packets", Quantity.integer) } ?? 1)
            change = { $0.loss = value; $0.lossBurst = max(1, run) }
        case .delay(let delay, let jitter):
            let (value, spread) = (try nanoseconds(delay), try jitter.map(nanoseconds) ?? 0)
            change = { $0.delay = value; $0.jitter = spread }
        case .reorder(let reorder, let gap):
            let (value, held) = (try share(reorder), try gap.map(nanoseconds) ?? LinkFaults.defaultReorderGap)
            change = { $0.reorder = value; $0.reorderGap = held }
        case .duplicate(let duplicate):
            let value = try share(duplicate)
            change = { $0.duplicate = value }
        case .rate(let rate):
            let value = try resolver.resolve(rate, "a rate", Quantity.rate)
            change = { $0.rate = value }
        case .partition: change = { $0.partitioned = true }
        case .heal: change = { $0.partitioned = false }
        case .clear: change = { $0 = LinkFaults() }
        }
    }

    func apply(to link: PacketLink) {
        link.change(direction, change)
    }
}
