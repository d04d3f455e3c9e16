import ProbeHost
import ProbeResults
import ProbeScript

/// Why a subject step failed: `spawn` and its readiness (environment errors: the subject could
/// not be brought up), `input`, `expect stdout|stderr` and `expect exit` (assertions).
enum SubjectFailure: FailureReason, Equatable {
    // spawn
    case notADirectory(path: String)
    case badCommand(error: String)
    case emptyCommand
    case networkNotMade(name: String)
    /// Finding or starting the program failed, in the system's words.
    case cannotStart(String)
    case portAlreadyListening(subject: String, port: Int, holders: String?)
    case readinessStillSearching(subject: String, stream: String, regex: String, within: Duration, lineBytes: Int)
    case endedBeforeReady(subject: String, exit: String, stream: String, regex: String)
    /// `printed` says what the stream held (`SubjectSteps.printed`).
    case notReady(subject: String, stream: String, regex: String, within: Duration, printed: String)
    case endedBeforeListening(subject: String, exit: String, address: String, daemonized: Bool, holders: String?)
    case notListening(subject: String, address: String, within: Duration, holders: String?)
    case wentToTheBackground(subject: String, exit: String, address: String, holders: String?)
    // input
    case noInput(subject: String, closedByInputEOF: Bool)
    case inputFailed(subject: String, written: Int, total: Int, error: String, state: String)
    case notReadingInput(subject: String, written: Int, total: Int, byDeadline: Bool, within: Duration)
    // expect stdout|stderr
    case outputNotEnded(source: String, line: String)
    case outputMismatch(source: String, verdict: String)
    case outputEnded(source: String, state: String, skipped: String?)
    /// `detail` is the matcher's or the stream's own account of what was waited on.
    case outputTimedOut(source: String, awaited: String, byDeadline: Bool, wait: Duration, detail: String,
                        droppedLines: Int, skipped: String?)
    // expect exit
    case stillRunning(subject: String, byDeadline: Bool, wait: Duration)
    case wrongExitCode(subject: String, expected: Int, ended: String)

    var kind: StepFailure.Kind {
        switch self {
        case .notADirectory, .cannotStart, .portAlreadyListening, .readinessStillSearching, .endedBeforeReady, .notReady,
             .endedBeforeListening, .notListening, .wentToTheBackground: .environment
        default: .assertion
        }
    }

    var description: String {
        switch self {
        case .notADirectory(let path): "the subject's working directory \(path) is not a directory"
        case .badCommand(let error): "bad command: \(error)"
        case .emptyCommand: "the command is empty"
        case .networkNotMade(let name): "no network named '\(name)': make it first with `network \(name)`"
        case .cannotStart(let error): error
        case .portAlreadyListening(let subject, let port, let holders):
            "port \(port) already has a listener before '\(subject)' starts, so its readiness cannot be told" + Self.lines(holders)
        case .readinessStillSearching(let subject, let stream, let regex, let within, let lineBytes):
            "'\(subject)' \(stream) did not match \(regex) within \(Self.short(within)); the regex was still searching a line of \(lineBytes) bytes"
        case .endedBeforeReady(let subject, let exit, let stream, let regex):
            "'\(subject)' ended (\(exit)) before its \(stream) matched \(regex)"
        case .notReady(let subject, let stream, let regex, let within, let printed):
            "'\(subject)' \(stream) did not match \(regex) within \(Self.short(within))\(printed)"
        case .endedBeforeListening(let subject, let exit, let address, let daemonized, let holders):
            "'\(subject)' ended (\(exit)) before it listened on \(address)" + (daemonized ? "\n" + Self.daemonHint : "") + Self.lines(holders)
        case .notListening(let subject, let address, let within, let holders):
            "'\(subject)' did not listen on \(address) within \(Self.short(within))" + Self.lines(holders)
        case .wentToTheBackground(let subject, let exit, let address, let holders):
            "'\(subject)' ended (\(exit)) while \(address), where it listened, still listens" + Self.lines(holders) + "\n" + Self.daemonHint
        case .noInput(let subject, let closed):
            "'\(subject)' has no standard input to write: " + (closed ? "it was closed by 'input \(subject) eof'" : "spawn it 'with stdin'")
        case .inputFailed(let subject, let written, let total, let error, let state):
            "'\(subject)' took \(written) of \(total) bytes: \(error) (\(state))"
        case .notReadingInput(let subject, let written, let total, let byDeadline, let within):
            "'\(subject)' took only \(written) of \(total) bytes \(byDeadline ? "by the scenario deadline" : "within \(Self.short(within))"): it is not reading its standard input"
        case .outputNotEnded(let source, let line): "expected the end of \(source), but it wrote the line \(line)"
        case .outputMismatch(let source, let verdict): "on \(source):\n\(verdict)"
        case .outputEnded(let source, let state, let skipped):
            "\(source) ended (\(state)) with no line left to match" + (skipped.map { " (after skipping \($0))" } ?? "")
        case .outputTimedOut(let source, let awaited, let byDeadline, let wait, let detail, let dropped, let skipped):
            (byDeadline ? "the scenario deadline of \(Self.short(wait)) passed" : "timed out after \(Self.short(wait))")
                + " waiting for \(awaited) of \(source)\(detail)"
                + (dropped > 0 ? " (\(dropped) lines were dropped: over \(OutputTail.pendingLimit) lines or 1 MiB waited unread)" : "")
                + (skipped.map { "; skipped \($0)" } ?? "")
        case .stillRunning(let subject, let byDeadline, let wait):
            "expected '\(subject)' to exit, but " + (byDeadline ? "the scenario deadline of \(Self.short(wait)) passed" : "it was still running after \(Self.short(wait))")
        case .wrongExitCode(let subject, let expected, let ended): "expected '\(subject)' to exit with code \(expected), but it ended with \(ended)"
        }
    }

    /// Why a subject that exits 0 while its port starts listening fails readiness.
    static let daemonHint = """
        it seems to have put itself in the background, out of reach of `kill`, `expect exit` and \
        its output (what listens above is still running; `tcpprobe run` stops it when the \
        scenario ends): run it in the foreground (nginx -g 'daemon off;', redis-server --daemonize no, \
        memcached without -d)
        """

    private static func lines(_ text: String?) -> String {
        text.map { "\n" + $0 } ?? ""
    }

    private static func short(_ duration: Duration) -> String {
        DurationFormat.short(duration)
    }
}
