import NIOCore
import ProbeFraming
import ProbeHost
import ProbeScript

/// What the executors of a statement family in their layer's folder (`ProxySteps`, …) need of
/// the scenario, or the `parallel` copy, that runs them: its arguments, loop, clock and limits,
/// its log, its variables and its capture. The scenario execution (Execution/) is the one host.
protocol StepHost: AnyObject, ArgumentResolver {
    var loop: EventLoop { get }
    var clock: RunClock { get }
    /// The seed of this run's (or copy's) random choices.
    var seed: UInt64 { get }
    /// The run's capture: a new listening port joins it, and wire checks read it.
    var wire: WireSession { get set }
    /// The run's options.
    var options: RunOptions { get }
    /// What `set` statements have set so far.
    var settings: Settings { get }
    /// `wait`, cut short by the scenario's deadline, and whether it was.
    func limit(_ wait: Duration) -> (wait: Duration, byDeadline: Bool)
    /// Waits on the run's loop.
    func pause(for duration: Duration) async throws
    /// Logs `message` for `statement`.
    func record(_ statement: Statement?, _ message: @autoclosure () -> String)
    /// The time left before the scenario's deadline.
    var remaining: Duration { get }
    /// The connection a step acts on: its `NAME:` prefix, else the current one.
    func target(_ statement: Statement, allowClosed: Bool) throws -> ProbeConnection
    /// The proxy opened under `name`, if any.
    func proxy(named name: String) -> ProbeProxy?
    /// The network made under `name`, if any.
    func network(named name: String) -> EmulatedNetwork?
    /// Sets the variable `name` (`{NAME.port}`).
    func define(_ name: String, as value: String)
    /// True when a listener is open under `name`, which a proxy then cannot take.
    func hasListener(named name: String) -> Bool
    /// True when one of its listeners has `port`.
    func hasListener(onPort port: Int) -> Bool
    /// A variable's value, for templates.
    func lookup(_ name: String) -> String?
    /// A template's bytes with its variables filled in.
    func render(_ template: Template) -> [UInt8]
    /// The bytes an expect compares with: a template's, `??` taking any byte.
    func pattern(_ template: Template) -> BytePattern
    /// Sets the variables a regex's named groups took.
    func setCaptures(_ captures: [String: [UInt8]])
    /// A regex with its variables filled in, compiled.
    func compile(_ literal: RegexLiteral, _ statement: Statement) throws -> CompiledRegex
    /// A line match with its variables filled in, ready to judge lines.
    func lineRule(_ match: LineMatch, _ statement: Statement) throws -> ExpectationMatcher.LineRule
    /// What a background rule reads (`on line|message …`): its match and head, resolved as the
    /// expect of the same words, and the framing that cuts what it reads.
    func readRule(_ expectation: Expectation, _ statement: Statement) throws -> (ExpectationMatcher.LineRule, BytePattern?, any Framing)
    /// The bytes a send of one line, message or byte string writes, framed.
    func payloadBytes(_ step: SendStep, _ statement: Statement) throws -> [UInt8]
    /// Adds a note to the report.
    func note(_ text: String)
    /// Notes the run's seed in the report, once: its random choices depend on it.
    func noteSeed()
    /// Counts time spent stopping subjects, which the report states.
    func addStoppingTime(_ duration: Duration)
}
