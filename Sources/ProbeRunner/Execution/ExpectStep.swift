import ProbeResults
import ProbeScript

/// An `expect` step waiting on its connection: it judges the outcome, logs a match and tells
/// the step (`done`) on the connection's loop; a failure's report is made on a task. A match's
/// log entry is made from this object, which keeps what it shows: one object an expect.
final class ExpectStep: WaitingExpect {
    let execution: ScenarioExecution
    let statement: Statement
    let connection: any ExpectSource
    let started: RunClock.Instant
    /// The expect's timeout, and whether the scenario's deadline set it.
    let wait: Duration
    let byDeadline: Bool
    /// True for `expect nothing`, which a time-out passes.
    let silence: Bool
    let done: StepDone
    // The `@exclusivity(unchecked)` vars here: docs/development.md, "Unchecked accesses".
    /// What a match took and how long it waited, for its log entry; set once, as it is decided.
    @exclusivity(unchecked) private var match: (detail: MatchDetail, waited: Duration, captures: [String: [UInt8]])?

    init(_ matcher: ExpectationMatcher, execution: ScenarioExecution, statement: Statement, connection: any ExpectSource,
         started: RunClock.Instant, wait: Duration, byDeadline: Bool, done: @escaping StepDone) {
        self.execution = execution
        self.statement = statement
        self.connection = connection
        self.started = started
        self.wait = wait
        self.byDeadline = byDeadline
        self.silence = matcher.timeoutMeansSuccess
        self.done = done
        super.init(matcher)
    }

    override func decided(_ outcome: MatchOutcome) {
        let now = execution.clock.now
        let waited = now - started
        let failure: StepFailure
        switch outcome {
        case .matched(let captures, let detail):
            if byDeadline, silence {
                return done(StepFailure(statement, CommonFailure.deadlinePassed(deadline: execution.settings.deadline, when: "during the silence"),
                                        connection, waited: waited))
            }
            if !captures.isEmpty { execution.setCaptures(captures) }
            if detail.decidedByReset, let probe = connection as? ProbeConnection {
                execution.wire.noteReset(statement, probe, received: probe.receivedAsCaptured)
            }
            execution.latencies?.record(waited)
            match = (detail, waited, captures)
            execution.record(statement, at: now) { [self] in matchMessage }
            return done(nil)
        case .failed(let message):
            failure = StepFailure(statement, ConnectionFailure.mismatch(message), connection, waited: waited)
        case .timedOut(let waitingFor, let pending, let misframing):
            let reason = ConnectionFailure.timedOut(byDeadline: byDeadline, wait: byDeadline ? execution.settings.deadline : wait, waitingFor: waitingFor,
                                                    misframing: misframing, unconsumed: pending.isEmpty ? nil : ByteEscaper.preview(pending))
            failure = StepFailure(statement, reason, connection, waited: waited)
        }
        let connection = self.connection
        execution.onTask { throw await failure.withRecentBytes(of: connection) }.whenFailure(done)
    }

    /// The log entry of a match.
    private var matchMessage: String {
        guard let match else { return "\(connection.label): got nothing" }
        return "\(connection.label): got \(match.detail) after \(DurationFormat.short(match.waited))\(ByteDiff.assignments(match.captures))"
    }
}
