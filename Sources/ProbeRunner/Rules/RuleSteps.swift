import NIOCore
import ProbeResults
import ProbeScript

/// `on …`, for the scenario or `parallel` copy that `context` is: background rules that consume
/// lines or messages and answer them, and heartbeats, on one connection; and the log of what
/// each did, when they end.
final class RuleSteps {
    private unowned let context: any StepContext
    private let connections: ConnectionTable
    /// The bytes a send of one line, message or byte string writes, framed, as `send` makes them.
    private let payload: (SendStep, Statement) throws -> [UInt8]

    init(context: any StepContext, connections: ConnectionTable, payload: @escaping (SendStep, Statement) throws -> [UInt8]) {
        self.context = context
        self.connections = connections
        self.payload = payload
    }

    /// Runs `statement`, an `on` step: it starts or ends rules and returns at once.
    func run(_ statement: Statement) throws {
        guard case .on(let rule) = statement.kind else { preconditionFailure("not a rule step: \(statement.text)") }
        let connection = try connections.target(statement, allowClosed: false)
        if connection.webSocket != nil {
            throw StepFailure(statement, RuleFailure.onWebSocket(connection: connection.label))
        }
        let handler = connection.handler
        switch rule {
        case .off:
            end(connection)
        case .reading(let expectation, let answer):
            let (match, head, framing) = try context.readRule(expectation, statement)
            let reply = try answer.map { step in try self.answer(step, on: connection, statement) }
            adding(to: handler) { $0.add(ReadRule(statement: statement, match: match, head: head, framing: framing, answer: reply)) }
        case .every(let interval, let step):
            let every = try context.resolve(interval, "a duration", Quantity.duration)
            guard every > .zero else { throw StepFailure(statement, RuleFailure.heartbeatZero) }
            let send = try answer(step, on: connection, statement)
            adding(to: handler) { $0.addHeartbeat(every: every.timeAmount, on: context.loop, statement) { try? send([:]) } }
        }
    }

    /// Adds to the handler's rules, made on first use; setting them back hands them what is
    /// already unread.
    private func adding(to handler: InboundHandler, _ add: (ReadRules) -> Void) {
        let rules = handler.rules ?? ReadRules()
        add(rules)
        handler.rules = rules
    }

    /// Writes what `step` sends, its variables (and a rule's groups) filled in when it fires.
    private func answer(_ step: SendStep, on connection: ProbeConnection, _ statement: Statement) throws -> ([String: [UInt8]]) throws -> Void {
        let payload = payload
        _ = try payload(step, statement) // a send that cannot be made fails the `on` step itself
        let timeout = context.settings.timeout
        // Weak: the rules live on the connection, which may outlast the scenario that made them.
        return { [weak context] captures in
            guard let context else { return }
            if !captures.isEmpty { context.setCaptures(captures) }
            let bytes = try payload(step, statement)
            connection.send(ByteBuffer(bytes: bytes), timeout: timeout) { _ in }
        }
    }

    /// Ends `connection`'s rules, logging what each did.
    func end(_ connection: ProbeConnection) {
        guard let rules = connection.handler.rules else { return }
        rules.stop()
        for rule in rules.rules {
            let unit = rule.framing.unit
            var what = "\(rule.consumed.counted(unit)) consumed"
            if rule.answer != nil { what += ", \(rule.answered) answered" }
            if let problem = rule.problem { what += "; an answer could not be made: \(problem)" }
            context.record(rule.statement, "\(connection.label): rule `\(rule.statement.text)`: \(what)")
        }
        for heartbeat in rules.heartbeats {
            context.record(heartbeat.statement, "\(connection.label): `\(heartbeat.statement.text)`: \(heartbeat.sent) sent")
        }
        connection.handler.rules = nil
    }
}
