import ProbeResults
import ProbeScript

/// What the reports are made of: the run's results with when it started and how long it took.
public struct RunReport: Sendable {
    public var results: [ScenarioResult]
    /// ISO 8601, e.g. `2026-11-22T09:30:00Z` (tests pass a fixed one).
    public var startedAt: String
    public var duration: Duration
    /// True when the run was cut short by a signal.
    public var interrupted: Bool
    /// What the run says beside its scenarios: processes subjects left running that tcpprobe
    /// stopped when the run ended.
    public var notes: [String]

    public init(results: [ScenarioResult], startedAt: String, duration: Duration, interrupted: Bool = false, notes: [String] = []) {
        self.results = results
        self.startedAt = startedAt
        self.duration = duration
        self.interrupted = interrupted
        self.notes = notes
    }

    public var passed: Int { results.filter { $0.outcome.passed }.count }
    public var skipped: Int { results.filter { $0.outcome.skipped }.count }
    /// Scenarios whose expectation or assertion failed.
    public var failed: Int { results.filter { $0.failure?.kind == .assertion }.count }
    /// Scenarios the environment stopped (spawn, bind, capture).
    public var errored: Int { results.filter { $0.failure?.kind == .environment }.count }
    /// `assert wire` steps of passing scenarios that were skipped for want of capture.
    public var skippedWireChecks: Int { results.filter { $0.outcome.passed }.reduce(0) { $0 + $1.skippedWireChecks } }

    /// "2 wire checks skipped" for the whole run, or nil when every wire check ran.
    var skippedWireText: String? { Self.skippedWire(skippedWireChecks) }

    /// "1 wire check skipped", "2 wire checks skipped"; nil for none.
    static func skippedWire(_ count: Int) -> String? {
        count == 0 ? nil : "\(count) wire check\(count == 1 ? "" : "s") skipped"
    }
}

extension ScenarioResult {
    /// The failure as one block of text: where, the step, the message.
    var failureText: String? {
        guard let failure else { return nil }
        var text = "\(failure.location.fileAndLine): \(failure.step)\n\(failure.message)"
        if let connection = failure.connection { text += "\non \(connection)" }
        return text
    }

    /// "2 wire checks skipped", or nil when every wire check ran.
    var skippedWireText: String? {
        RunReport.skippedWire(skippedWireChecks)
    }

    /// The step log as text.
    var logText: String {
        (log.map { "\(DurationFormat.offset($0.offset)) \($0.location.map(\.fileAndLine) ?? "-"): \($0.message)" } + notes.map { "note: \($0)" })
            .joined(separator: "\n")
    }
}
