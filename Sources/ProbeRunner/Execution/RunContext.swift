import NIOCore
import ProbeHost
import ProbeScript

/// What one run of a scenario shares with every copy of its `parallel` blocks: the scenario, the
/// options, the run's one event loop, its clock and start, and the caches the copies fill
/// together. One reference, so a copy cannot forget a field of it.
final class RunContext {
    let scenario: Scenario
    let options: RunOptions
    /// The run's event loop: its channels, its timers and the task that drives them.
    let loop: EventLoop
    let clock = RunClock()
    let start: RunClock.Instant
    /// The regexes expects have compiled.
    let regexCache = RegexCache()
    /// The addresses of the host names connected to.
    let hostNames = HostNames()
    /// The next address of each `connect … from NETWORK/PREFIX`.
    let sourceAddresses = SourceAddresses()
    /// Its networks: a run makes them, its copies use them.
    let networks = NetworkTable()
    /// The ports `free-port` picked, held until the scenario's `listen` takes one.
    let heldPorts = HeldPorts()

    init(scenario: Scenario, options: RunOptions, loop: EventLoop) {
        self.scenario = scenario
        self.options = options
        self.loop = loop
        start = clock.now
    }
}
