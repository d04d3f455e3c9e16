/// The end of one of a `send`'s writes, held inline by its `TimedWrite`: it tells the step
/// (`done`) on the connection's loop, and a failure is worked out on a task. A send of one
/// write (`wholeSend`) also logs itself, or notes the peer's close that cut it off.
struct StepWrite: WriteEnd {
    let execution: ScenarioExecution
    let send: PreparedSend
    /// The send's bytes written before this write.
    let sent: Int
    /// The write's timeout, and whether the scenario's deadline set it.
    let wait: Duration
    let byDeadline: Bool
    let wholeSend: Bool
    let done: StepDone

    func written(_ result: Result<Bool, Error>) {
        if case .success(true) = result {
            if wholeSend { execution.recordSend(send, head: send.singleWrite ?? [], writes: []) }
            return done(nil)
        }
        execution.onTask { throw await execution.writeFailure(result.failure, wait, byDeadline, after: sent, send) }.whenFailure { problem in
            if wholeSend, let cut = problem as? SendCutOff {
                execution.noteCutOff(cut, send)
                return done(nil)
            }
            done(problem)
        }
    }
}
