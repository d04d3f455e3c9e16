import ProbeResults
import ProbeScript

/// The end of an `expect` step, held inline by the waiting expect: it judges the outcome,
/// logs a match and tells the step (`done`) on the connection's loop; a failure's report is
/// made on a task.
struct ExpectStep: ExpectEnd, Sendable {
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

    func decided(_ outcome: MatchOutcome) {
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
            let label = connection.label
            execution.record(statement, at: now) { "\(label): got \(detail) after \(DurationFormat.short(waited))\(ByteDiff.assignments(captures))" }
            return done(nil)
        case .failed(let message):
            failure = StepFailure(statement, ConnectionFailure.mismatch(message), connection, waited: waited)
        case .timedOut(let waitingFor, let pending, let misframing):
            let reason = ConnectionFailure.timedOut(byDeadline: byDeadline, wait: byDeadline ? execution.settings.deadline : wait, waitingFor: waitingFor,
                                                    misframing: misframing, unconsumed: pending.isEmpty ? nil : ByteEscaper.preview(pending))
            failure = StepFailure(statement, reason, connection, waited: waited)
        }
        execution.onTask { throw await failure.withRecentBytes(of: connection) }.whenFailure(done)
    }
}
