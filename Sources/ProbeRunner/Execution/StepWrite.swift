/// The end of one of a `send`'s writes, held inline by its `TimedWrite`: it tells the step
/// (`done`) on the connection's loop, and a failure is worked out on a task. A send of one
/// write (`wholeSend`) also logs itself, its entry keeping the write's object and the plan in
/// it, or notes the peer's close that cut it off.
struct StepWrite: WriteEnd {
    let execution: ScenarioExecution
    let plan: SendPlan
    /// The send's bytes written before this write.
    let sent: Int
    /// The write's timeout, and whether the scenario's deadline set it.
    let wait: Duration
    let byDeadline: Bool
    let wholeSend: Bool
    let done: StepDone

    func written(_ result: Result<Bool, Error>, by write: TimedWrite<StepWrite>) {
        if case .success(true) = result {
            if wholeSend { execution.recordSend(write) }
            return done(nil)
        }
        execution.onTask { throw await execution.writeFailure(result.failure, wait, byDeadline, after: sent, plan) }.whenFailure { problem in
            if wholeSend, let cut = problem as? SendCutOff {
                execution.noteCutOff(cut, plan)
                return done(nil)
            }
            done(problem)
        }
    }
}
