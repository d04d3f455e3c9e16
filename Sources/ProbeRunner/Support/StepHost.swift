import NIOCore
import ProbeScript

/// What the executors of a statement family in their layer's folder (`ProxySteps`, …) need of
/// the scenario, or the `parallel` copy, that runs them: its arguments, loop, clock and limits,
/// its log, its variables and its capture. `ScenarioExecution` is the one host.
protocol StepHost: AnyObject, ArgumentResolver {
    var loop: EventLoop { get }
    var clock: ContinuousClock { get }
    /// The seed of this run's (or copy's) random choices.
    var seed: UInt64 { get }
    /// The run's capture, which a new listening port joins.
    var wire: WireSession { get }
    /// A step's own limit when its `within` does not say (`set timeout`).
    var stepTimeout: Duration { get }
    /// `wait`, cut short by the scenario's deadline, and whether it was.
    func limit(_ wait: Duration) -> (wait: Duration, byDeadline: Bool)
    /// Waits on the run's loop.
    func pause(for duration: Duration) async throws
    /// Logs `message` for `statement`.
    func record(_ statement: Statement?, _ message: @autoclosure () -> String)
    /// Sets the variable `name` (`{NAME.port}`).
    func define(_ name: String, as value: String)
    /// True when a listener is open under `name`, which a proxy then cannot take.
    func hasListener(named name: String) -> Bool
}
