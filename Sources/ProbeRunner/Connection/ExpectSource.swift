import NIOCore

/// What an expect reads: a connection's inbound stream, or one direction of a proxy's traffic.
protocol ExpectSource: AnyObject, Sendable {
    /// How reports name it.
    var label: String { get }
    /// What `matcher` decides, or a time-out after `timeout`.
    func expect(_ matcher: ExpectationMatcher, timeout: TimeAmount) -> EventLoopFuture<MatchOutcome>
    /// The last bytes it received, for failure reports.
    func recentBytes() async -> (bytes: [UInt8], total: Int)
}

extension ProbeConnection: ExpectSource {}
