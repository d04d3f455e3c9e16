import NIOCore
import ProbeFraming
import ProbeResults
import ProbeScript

/// The `expect` executor.
extension ScenarioExecution {
    /// An expect on the step's connection; `done` is told its end on the connection's loop, and
    /// only a failure's report needs a task.
    func expect(_ expectation: Expectation, within: Argument<Duration>?, _ statement: Statement, done: @escaping StepDone) throws {
        let connection = try target(statement)
        // One switch over the forms a connection's layers read, not an `if case` each.
        let resolved: ExpectationMatcher.Rule
        switch expectation {
        case .webSocket(let frame): resolved = try webSocketSteps.webSocketRule(frame, on: connection, statement)
        case .http2(let http2): resolved = try http2Steps.rule(http2, on: connection, statement)
        // On a WebSocket connection `expect close` takes the close frame, or TCP's end without one.
        case .close:
            if let session = connection.webSocket { resolved = .webSocket(.closeOrEnd, session) } else { resolved = .close }
        default:
            if connection.webSocket != nil, expectation.readsLines {
                throw StepFailure(statement, ConnectionFailure.webSocketReadsMessages(connection: connection.label), connection)
            }
            resolved = try rule(for: expectation, statement)
        }
        try expect(expectation, rule: consume resolved, within: within, on: connection, statement, done: done)
    }

    /// An expect that reads `source`: a connection, or what passes a proxy one way.
    func expect(_ expectation: Expectation, within: Argument<Duration>?, on source: any ExpectSource, _ statement: Statement, done: @escaping StepDone) throws {
        switch expectation {
        case .webSocket, .http2: throw StepFailure(statement, ConnectionFailure.proxyReadsBytes, source)
        default: break
        }
        try expect(expectation, rule: try rule(for: expectation, statement), within: within, on: source, statement, done: done)
    }

    private func expect(_ expectation: Expectation, rule: consuming ExpectationMatcher.Rule, within: Argument<Duration>?, on connection: any ExpectSource,
                        _ statement: Statement, done: @escaping StepDone) throws {
        let matcher = ExpectationMatcher(consume rule, framing: expectation.readsMessages ? settings.framing : settings.lineFraming)
        let requested: Duration
        if case .nothing(let duration) = expectation {
            requested = try resolve(duration, "a duration", Quantity.duration)
        } else {
            requested = try within.map { try resolve($0, "a duration", Quantity.duration) } ?? settings.timeout
        }
        let started = clock.now
        let (wait, byDeadline, nanoseconds) = limit(requested, at: started)
        let step = ExpectStep.make(consume matcher, execution: self, statement: statement, connection: connection, started: started, wait: wait,
                                   byDeadline: byDeadline, done: done, reusing: spareExpect.take())
        connection.expect(step, timeout: .nanoseconds(nanoseconds))
    }

    /// `NAME: expect upstream|downstream …`; a failure says when the watch had dropped bytes
    /// no expect read, which the expect may have needed.
    func expect(_ expectation: Expectation, within: Argument<Duration>?, watching direction: ProxyDirection, _ statement: Statement) async throws {
        let watch = try await proxies.watch(direction, within: within, statement)
        do {
            try await awaitStep { try self.expect(expectation, within: within, on: watch, statement, done: $0) }
        } catch var failure as StepFailure {
            let dropped = await watch.droppedUnread()
            if dropped > 0 {
                failure.message += "\n(the watch dropped the oldest \(dropped) bytes no expect had read: it keeps \(ExpectQueue.watchLimit / 1024) KiB a direction)"
            }
            throw failure
        }
    }
}

extension Expectation {
    /// True for the expects that read lines or messages, which a WebSocket connection has not.
    var readsLines: Bool {
        switch self {
        case .line, .message, .messageOfLength, .linesUnordered, .eventually: return true
        default: return false
        }
    }

    /// True for `expect message`, which reads the framing `set framing` chose.
    var readsMessages: Bool {
        switch self {
        case .message, .messageOfLength: return true
        default: return false
        }
    }

}
