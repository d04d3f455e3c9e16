import NIOCore
import ProbeFraming
import ProbeResults
import ProbeScript

/// What every family of steps needs of the scenario, or the `parallel` copy, that runs it: its
/// loop and clock, its settings, its variables and their rendering, its log and notes, and the
/// time left. What one family alone needs, that family is given when it is made. The scenario
/// execution (Execution/) is the one context.
protocol StepContext: AnyObject, ArgumentResolver {
    /// The run's event loop: every step's channels and timers.
    var loop: EventLoop { get }
    var clock: RunClock { get }
    /// The seed of this run's (or copy's) random choices.
    var seed: UInt64 { get }
    /// What `set` statements have set so far.
    var settings: Settings { get }
    /// The variables set so far.
    var variables: VariableValues { get set }
    /// A variable's value, for templates (`{i}` and `{copy}` too).
    func lookup(_ name: String) -> String?
    /// The regexes the run has compiled.
    var regexes: RegexCache { get }
    /// The time left before the scenario's deadline.
    var remaining: Duration { get }
    /// Logs `message` for `statement`.
    func record(_ statement: Statement?, _ message: @autoclosure () -> String)
    /// Adds a note to the report, unless it holds the same one.
    func note(_ text: String)
}

extension StepContext {
    /// The argument's value, parsing its rendered text when it interpolates variables.
    func resolve<Value>(_ argument: Argument<Value>, _ what: String, _ parse: (String) -> Value?) throws -> Value {
        switch argument.form {
        case .literal(let value):
            return value
        case .interpolated(let template):
            let text = template.renderString(lookup)
            guard let value = parse(text) else {
                throw StepFailure(at: argument.location, step: argument.text,
                                  reason: CommonFailure.notAValue(argument: argument.text, rendered: text, what: what))
            }
            return value
        }
    }

    /// A template's bytes with the variables filled in, binary values byte for byte.
    func render(_ template: Template) -> [UInt8] {
        template.render(lookup, bytes: variables.binary)
    }

    /// The bytes an expect compares with: a template's, `??` taking any byte.
    func pattern(_ template: Template) -> BytePattern {
        template.pattern(lookup, bytes: variables.binary)
    }

    /// Sets the variables a regex's named groups took.
    func setCaptures(_ captures: [String: [UInt8]]) {
        variables.setCaptures(captures)
    }

    /// Sets the variable `name` (`{NAME.port}`).
    func define(_ name: String, as value: String) {
        variables[name] = value
    }

    /// The regex with its variables filled in, compiled (or from the cache).
    func compile(_ literal: RegexLiteral, _ statement: Statement) throws -> CompiledRegex {
        do {
            return try regexes.regex(literal, lookup)
        } catch {
            throw StepFailure(statement, CommonFailure.regexDoesNotCompile(regex: literal.description, error: "\(error)"))
        }
    }

    /// The wait for a step starting now: its own limit, cut short by the scenario deadline.
    func limit(_ wait: Duration) -> (wait: Duration, byDeadline: Bool) {
        let left = max(.zero, remaining)
        return left < wait ? (left, true) : (wait, false)
    }

    /// Waits on the run's own event loop, whose timer wakes the thread that runs this task:
    /// `Task.sleep` waits on a Dispatch timer, with its leeway, and then hops back to the loop,
    /// which left `every 10ms` chunks up to 10 ms late on a loaded machine. `WaitEnd` says
    /// when a long pause ends.
    func pause(for duration: Duration) async throws {
        let timer = loop.scheduleTask(deadline: WaitEnd.deadline(after: duration)) {}
        try await withTaskCancellationHandler {
            do {
                try await timer.futureResult.get()
            } catch EventLoopError.cancelled {
                throw CancellationError()
            }
        } onCancel: {
            timer.cancel()
        }
    }

    /// Notes the run's seed in the report: its random choices depend on it.
    func noteSeed() {
        note("random seed \(seed) (rerun with --seed \(seed))")
    }
}
