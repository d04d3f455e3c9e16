/// What a network's link does to the packets of one direction, as the scenario last set it.
/// Times are in nanoseconds; shares from 0 to 1.
public struct LinkFaults: Sendable, Equatable {
    /// The share of packets dropped, and how many go in a row once one is.
    public var loss = 0.0
    public var lossBurst = 1
    /// How long each packet is held, give or take up to `jitter`.
    public var delay: Int64 = 0
    public var jitter: Int64 = 0
    /// The share of packets held back by `reorderGap`, so later ones overtake them.
    public var reorder = 0.0
    public var reorderGap: Int64 = LinkFaults.defaultReorderGap
    /// The share of packets sent twice.
    public var duplicate = 0.0
    /// At most this many bytes a second; nil for no limit.
    public var rate: Int?
    /// Every packet dropped, until healed.
    public var partitioned = false

    /// A reorder's gap when the scenario names none.
    public static let defaultReorderGap: Int64 = 10_000_000

    public init() {}
}
