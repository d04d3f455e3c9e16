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
        if case .webSocket(let frame) = expectation {
            return try expect(expectation, rule: try webSocketSteps.webSocketRule(frame, on: connection, statement), within: within, on: connection, statement, done: done)
        }
        // On a WebSocket connection `expect close` takes the close frame, or TCP's end without one.
        if case .close = expectation, let session = connection.webSocket {
            return try expect(expectation, rule: .webSocket(.closeOrEnd, session), within: within, on: connection, statement, done: done)
        }
        if connection.webSocket != nil, expectation.readsLines {
            throw failure(statement, "\(connection.label) is a WebSocket connection: read its messages with expect text or expect binary", connection)
        }
        try expect(expectation, within: within, on: connection, statement, done: done)
    }

    /// An expect that reads `source`: a connection, or what passes a proxy one way.
    func expect(_ expectation: Expectation, within: Argument<Duration>?, on source: any ExpectSource, _ statement: Statement, done: @escaping StepDone) throws {
        if case .webSocket = expectation {
            throw failure(statement, "a proxy forwards and watches raw bytes: expect text|binary|ping|pong|close read a WebSocket connection of the probe's own", source)
        }
        try expect(expectation, rule: try rule(for: expectation, statement), within: within, on: source, statement, done: done)
    }

    private func expect(_ expectation: Expectation, rule: ExpectationMatcher.Rule, within: Argument<Duration>?, on connection: any ExpectSource,
                        _ statement: Statement, done: @escaping StepDone) throws {
        let matcher = ExpectationMatcher(rule, framing: expectation.readsMessages ? settings.framing : settings.lineFraming)
        let requested: Duration
        if case .nothing(let duration) = expectation {
            requested = try resolve(duration, "a duration", Quantity.duration)
        } else {
            requested = try within.map { try resolve($0, "a duration", Quantity.duration) } ?? settings.timeout
        }
        let started = clock.now
        let (wait, byDeadline) = limit(requested, at: started)
        let silence = matcher.timeoutMeansSuccess
        connection.expect(matcher, timeout: wait.timeAmount) { outcome in
            let now = self.clock.now
            let waited = now - started
            let failure: StepFailure
            switch outcome {
            case .matched(let captures, let detail):
                if byDeadline, silence {
                    return done(self.failure(statement, "the scenario deadline of \(self.format(self.settings.deadline)) passed during the silence",
                                             connection, waited: waited))
                }
                if !captures.isEmpty { self.setCaptures(captures) }
                self.latencies?.record(waited)
                let label = connection.label
                self.record(statement, at: now) { "\(label): got \(detail) after \(DurationFormat.short(waited))\(ByteDiff.assignments(captures))" }
                return done(nil)
            case .failed(let message):
                failure = self.failure(statement, message, connection, waited: waited)
            case .timedOut(let waitingFor, let pending, let misframing):
                let why = byDeadline ? "the scenario deadline of \(self.format(self.settings.deadline)) passed" : "timed out after \(self.format(wait))"
                var arrived = pending.isEmpty ? "nothing unconsumed had arrived" : "unconsumed so far: \(ByteEscaper.preview(pending))"
                if let misframing { arrived = misframing + "; " + arrived }
                failure = self.failure(statement, "\(why) waiting for \(waitingFor); \(arrived)", connection, waited: waited)
            }
            self.onTask { throw await failure.withRecentBytes(of: connection) }.whenFailure(done)
        }
    }

    /// How many bytes of lines `expect eventually` skips at most when the step names no `max`.
    static let eventuallyMax = 1 << 20

    /// The expectation with its variables filled in and its regex compiled.
    private func rule(for expectation: Expectation, _ statement: Statement) throws -> ExpectationMatcher.Rule {
        switch expectation {
        case .line(let match): return .line(try lineRule(match, statement))
        case .message(let match, let head): return .line(try lineRule(match, statement), head: try headPattern(head, statement))
        case .messageOfLength(let count, let head):
            return .line(.length(try resolve(count, "a size", Quantity.size)), head: try headPattern(head, statement))
        case .linesUnordered(let lines): return .linesUnordered(remaining: lines.map(render))
        case .exactBytes(let template): return .exactBytes(pattern(template))
        case .byteCount(let count, let equals):
            return .byteCount(try resolve(count, "a size", Quantity.size), equals: equals.map(pattern))
        case .until(let delimiter, let max):
            let bytes = render(delimiter)
            // The parser refuses a literal empty delimiter; one made of variables is checked here.
            if bytes.isEmpty { throw failure(statement, "the delimiter is empty once its variables are filled in") }
            return .until(bytes, max: try resolve(max, "a size", Quantity.size))
        case .untilMatch(let literal, let max):
            return .untilMatch(try compile(literal, statement), max: try resolve(max, "a size", Quantity.size))
        case .eventually(let match, let max, let unless):
            return .eventually(try lineRule(match, statement), max: try max.map { try resolve($0, "a size", Quantity.size) } ?? Self.eventuallyMax,
                               unless: try unless.map { try compile($0, statement) }, skipped: SkippedLines())
        case .any: return .any
        case .eof: return .eof
        case .reset: return .reset
        case .close: return .close
        case .nothing: return .nothing
        case .webSocket: preconditionFailure("a WebSocket expectation is resolved against its connection")
        }
    }

    func lineRule(_ match: LineMatch, _ statement: Statement) throws -> ExpectationMatcher.LineRule {
        switch match {
        case .exact(let template): return .exact(pattern(template))
        case .contains(let template): return .contains(render(template))
        case .any: return .any
        case .regex(let literal): return .regex(try compile(literal, statement))
        }
    }

    func readRule(_ expectation: Expectation, _ statement: Statement) throws -> (ExpectationMatcher.LineRule, BytePattern?, any Framing) {
        guard case .line(let match, let head) = try rule(for: expectation, statement) else {
            preconditionFailure("the parser gives a rule only line and message forms")
        }
        return (match, head, expectation.readsMessages ? settings.framing : settings.lineFraming)
    }

    /// An expected message's head, checked against the framing as a send's is.
    private func headPattern(_ head: Template?, _ statement: Statement) throws -> BytePattern? {
        guard let head else { return nil }
        guard case .length(let header) = settings.messageFraming else { throw failure(statement, Self.headUnderLines) }
        let expected = pattern(head)
        _ = try headBytesChecked(expected.bytes, header, statement)
        return expected
    }

    static let headUnderLines = "a message has a head under set framing length|varint … after N, not under lines"

    /// `head` when it is as long as `header`'s head; else the step fails, saying so.
    func headBytesChecked(_ head: [UInt8], _ header: LengthHeader, _ statement: Statement) throws -> [UInt8] {
        guard head.count == header.after else { throw failure(statement, "the head is \(head.count) bytes, and \(header) takes \(header.after)") }
        return head
    }

    /// The regex with its variables filled in, compiled (or from the cache).
    func compile(_ literal: RegexLiteral, _ statement: Statement) throws -> CompiledRegex {
        do {
            return try run.regexCache.regex(literal, lookup)
        } catch {
            throw failure(statement, "the regex \(literal.description) does not compile once its variables are filled in: \(error)")
        }
    }

    /// `NAME: expect upstream|downstream …`; a failure says when the watch had dropped bytes
    /// no expect read, which the expect may have needed.
    func expect(_ expectation: Expectation, within: Argument<Duration>?, watching watch: ProxyWatch, _ statement: Statement) async throws {
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
