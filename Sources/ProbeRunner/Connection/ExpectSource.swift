import NIOCore

/// What an expect reads: a connection's inbound stream, or one direction of a proxy's traffic.
protocol ExpectSource: AnyObject, Sendable {
    /// How reports name it.
    var label: String { get }
    /// The loop its bytes arrive on, where an expect's outcome is told.
    var eventLoop: EventLoop { get }
    /// Tells `waiting`, on `eventLoop`, what its matcher decides, or a time-out after `timeout`.
    func expect(_ waiting: sending WaitingExpect, timeout: TimeAmount)
    /// The last bytes it received, for failure reports.
    func recentBytes() async -> (bytes: [UInt8], total: Int)
}

extension ExpectSource {
    /// What `matcher` decides, or a time-out after `timeout`.
    func expect(_ matcher: ExpectationMatcher, timeout: TimeAmount) -> EventLoopFuture<MatchOutcome> {
        let promise = eventLoop.makePromise(of: MatchOutcome.self)
        expect(DecidedCallback(matcher) { promise.succeed($0) }, timeout: timeout)
        return promise.futureResult
    }
}

extension ProbeConnection: ExpectSource {}
