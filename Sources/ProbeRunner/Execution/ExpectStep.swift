import ProbeResults
import ProbeScript

/// An `expect` step waiting on its connection: it judges the outcome, logs a match and tells
/// the step (`done`) on the connection's loop; a failure's report is made on a task. A match's
/// log entry is this object, which keeps what it shows, and the log hands it back when it lets
/// the entry go: the run's next expect is made in it (`make`), so an expect makes no object.
final class ExpectStep: WaitingExpect, LoggedStep {
    let execution: ScenarioExecution
    // The `@exclusivity(unchecked)` vars here: docs/development.md, "Unchecked accesses".
    @exclusivity(unchecked) private(set) var statement: Statement
    @exclusivity(unchecked) private(set) var connection: any ExpectSource
    @exclusivity(unchecked) private var started: RunClock.Instant
    /// The expect's timeout, and whether the scenario's deadline set it.
    @exclusivity(unchecked) private var wait: Duration
    @exclusivity(unchecked) private var byDeadline: Bool
    /// True for `expect nothing`, which a time-out passes.
    @exclusivity(unchecked) private var silence: Bool
    @exclusivity(unchecked) private var done: StepDone
    /// What a match took and how long it waited, for its log entry; set as it is decided. An
    /// expect made in a spare keeps the spare's until then, unread: only a match is logged, and
    /// resetting it would take the old one apart through Optional's generic witnesses.
    @exclusivity(unchecked) private var match: Match?

    /// A struct, not a tuple: an optional tuple is set and taken apart through its generic
    /// value witnesses, an expect at a time.
    private struct Match {
        let detail: MatchDetail
        let waited: Duration
        let captures: [String: [UInt8]]
    }

    private init(_ matcher: consuming ExpectationMatcher, execution: ScenarioExecution, statement: Statement, connection: any ExpectSource,
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

    /// An expect of `execution`'s, made in `spare` when no one else holds it, else anew. A
    /// statement or connection the spare had already is not assigned again, which would
    /// count its references up and down.
    static func make(_ matcher: consuming ExpectationMatcher, execution: ScenarioExecution, statement: Statement, connection: any ExpectSource,
                     started: RunClock.Instant, wait: Duration, byDeadline: Bool, done: @escaping StepDone, reusing spare: consuming ExpectStep?) -> ExpectStep {
        guard var step = consume spare, isKnownUniquelyReferenced(&step) else {
            return ExpectStep(matcher, execution: execution, statement: statement, connection: connection, started: started, wait: wait,
                              byDeadline: byDeadline, done: done)
        }
        step.silence = matcher.timeoutMeansSuccess
        step.matcher = matcher
        step.deadline = .distantFuture
        if step.statement !== statement { step.statement = statement }
        if step.connection !== connection { step.connection = connection }
        (step.started, step.wait, step.byDeadline) = (started, wait, byDeadline)
        step.done = done
        return step
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
            match = Match(detail: detail, waited: waited, captures: captures)
            execution.record(statement, at: now, step: self)
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
    var logMessage: String {
        guard let match else { return "\(connection.label): got nothing" }
        return "\(connection.label): got \(match.detail) after \(DurationFormat.short(match.waited))\(ByteDiff.assignments(match.captures))"
    }

    func letGo() {
        execution.spareExpect = self
    }
}
