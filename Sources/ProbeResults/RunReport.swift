import ProbeScript

/// What the reports are made of: the run's results with when it started and how long it took.
package struct RunReport: Sendable {
    package var results: [ScenarioResult]
    /// ISO 8601, e.g. `2026-11-22T09:30:00Z` (tests pass a fixed one).
    package var startedAt: String
    package var duration: Duration
    /// True when the run was cut short by a signal.
    package var interrupted: Bool
    /// What the run says beside its scenarios: processes subjects left running that tcpprobe
    /// stopped when the run ended.
    package var notes: [String]
    /// Under `run --part`: which part of the load this run was (`3/8`).
    package var part: String?

    package init(results: [ScenarioResult], startedAt: String, duration: Duration, interrupted: Bool = false, notes: [String] = []) {
        self.results = results
        self.startedAt = startedAt
        self.duration = duration
        self.interrupted = interrupted
        self.notes = notes
    }

    package var passed: Int { results.filter { $0.outcome.passed }.count }
    package var skipped: Int { results.filter { $0.outcome.skipped }.count }
    /// Scenarios whose expectation or assertion failed.
    package var failed: Int { results.filter { $0.failure?.kind == .assertion }.count }
    /// Scenarios the environment stopped (spawn, bind, capture).
    package var errored: Int { results.filter { $0.failure?.kind == .environment }.count }
    /// `assert wire` steps of passing scenarios that were skipped for want of capture.
    package var skippedWireChecks: Int { results.filter { $0.outcome.passed }.reduce(0) { $0 + $1.skippedWireChecks } }
}
