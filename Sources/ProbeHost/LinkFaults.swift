/// What a network's link does to the packets of one direction, as the scenario last set it.
/// Times are in nanoseconds; shares from 0 to 1.
package struct LinkFaults: Sendable, Equatable {
    /// The share of packets dropped, and how many go in a row once one is.
    package var loss = 0.0
    package var lossBurst = 1
    /// How long each packet is held, give or take up to `jitter`.
    package var delay: Int64 = 0
    package var jitter: Int64 = 0
    /// The share of packets held back by `reorderGap`, so later ones overtake them.
    package var reorder = 0.0
    package var reorderGap: Int64 = LinkFaults.defaultReorderGap
    /// The share of packets sent twice.
    package var duplicate = 0.0
    /// At most this many bytes a second; nil for no limit.
    package var rate: Int?
    /// Every packet dropped, until healed.
    package var partitioned = false

    /// A reorder's gap when the scenario names none.
    package static let defaultReorderGap: Int64 = 10_000_000

    package init() {}
}
