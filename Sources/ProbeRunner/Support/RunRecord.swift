import ProbeResults
import ProbeScript

/// What a run leaves for its result besides the outcome: the step log, the notes, and one
/// summary per `parallel` block. A copy of a `parallel` block keeps no log: ten thousand
/// copies would drown it.
struct RunRecord {
    /// False for a copy of a `parallel` block.
    let keepsLog: Bool
    private(set) var log = StepLog()
    /// Facts worth reporting even on success, such as the random seed.
    var notes: [String] = []
    var parallelSummaries: [ParallelSummary] = []
    /// Under `--part`: the `assert copies`/`assert latency` steps left for `tcpprobe merge`.
    var unjudged: [UnjudgedAssertion] = []
    /// How long stopping its subjects took, at `kill` and at the end.
    var stoppingSubjects: Duration = .zero
    /// When the step that failed the run failed.
    var failedAt: Duration?

    /// The steps as they began, for the HTML report; the first `keptSteps` only.
    private(set) var steps: [StepSpan] = []
    static let keptSteps = 2000

    /// Notes that `statement` begins, `offset` into the run.
    mutating func begin(_ statement: Statement, at offset: Duration) {
        guard keepsLog, steps.count < Self.keptSteps else { return }
        steps.append(StepSpan(start: Double(offset / .microseconds(1)) / 1e6, location: statement.location, text: statement.text))
    }

    /// Logs `message`, `offset` into the run, at `statement`'s location.
    mutating func log(_ message: String, at offset: Duration, _ statement: Statement?) {
        _ = log(atNanoseconds: offset.saturatedNanoseconds, statement, .closure { message })
    }

    /// The log's entries, leaving it empty: the entries still to be built hold what they show
    /// (an expect's step, which holds the run), and let go of it here.
    mutating func takeLog() -> [LogEntry] {
        defer { log = StepLog() }
        return log.entries
    }

    /// Logs the message `message` builds, `offset` nanoseconds into the run, if the log keeps
    /// it (see `StepLog`); returns the step's object the log let go, if any.
    mutating func log(atNanoseconds offset: Int64, _ statement: Statement?, _ message: StepLog.Message) -> (any LoggedStep)? {
        guard keepsLog else { return nil }
        return log.append(atNanoseconds: offset, statement, message)
    }
}
