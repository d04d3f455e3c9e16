import NIOCore

/// What an expect reads: a connection's inbound stream, or one direction of a proxy's traffic.
protocol ExpectSource: AnyObject, Sendable {
    /// How reports name it.
    var label: String { get }
    /// The loop its bytes arrive on, where an expect's outcome is told.
    var eventLoop: EventLoop { get }
    /// Calls `decided`, on `eventLoop`, with what `matcher` decides, or with a time-out after `timeout`.
    func expect(_ matcher: ExpectationMatcher, timeout: TimeAmount, decided: @escaping @Sendable (MatchOutcome) -> Void)
    /// Tells `end`, on `eventLoop`, what `matcher` decides, or a time-out after `timeout`.
    func expect<End: ExpectEnd & Sendable>(_ matcher: ExpectationMatcher, timeout: TimeAmount, to end: End)
    /// The last bytes it received, for failure reports.
    func recentBytes() async -> (bytes: [UInt8], total: Int)
}

extension ExpectSource {
    /// What `matcher` decides, or a time-out after `timeout`.
    func expect(_ matcher: ExpectationMatcher, timeout: TimeAmount) -> EventLoopFuture<MatchOutcome> {
        let promise = eventLoop.makePromise(of: MatchOutcome.self)
        expect(matcher, timeout: timeout) { promise.succeed($0) }
        return promise.futureResult
    }
}

extension ProbeConnection: ExpectSource {}
