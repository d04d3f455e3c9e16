/// The outcome of running one scenario.
package struct ScenarioResult: Sendable {
    package enum Outcome: Sendable {
        case passed
        case failed(StepFailure)
        case skipped(String)

        package var passed: Bool {
            if case .passed = self { return true }
            return false
        }

        package var skipped: Bool {
            if case .skipped = self { return true }
            return false
        }
    }

    /// Why it failed, or nil when it passed or was skipped.
    package var failure: StepFailure? {
        if case .failed(let failure) = outcome { return failure }
        return nil
    }

    package var path: String
    package var title: String
    package var outcome: Outcome
    package var duration: Duration
    package var log: [LogEntry]
    /// Facts worth reporting even on success, such as the random seed.
    package var notes: [String]
    /// Each offset's outcome when the scenario has a `split sweep`.
    package var sweep: SweepReport?
    /// One summary per `parallel` block that ran.
    package var parallel: [ParallelSummary] = []
    /// Under `run --part`: the asserts on whole blocks left for `tcpprobe merge`.
    package var unjudged: [UnjudgedAssertion] = []
    /// Under `run --part`: the SHA-256 of the scenario's text and its includes', so parts of
    /// different scenarios are not merged as one load.
    package var digest: String?
    /// The captured segments, when `RunOptions.recordWire` asked for them and capture ran.
    package var wire: [WireEvent] = []
    /// The steps as they began (the first 2,000), when `RunOptions.recordWire` asked for them.
    package var steps: [StepSpan] = []
    /// How many `assert wire` steps did not judge anything because the run could not capture:
    /// a pass with these is a pass of the other steps only, and every report says so.
    package var skippedWireChecks = 0
    /// When the failing step failed, since the scenario started (nil when it passed).
    package var failedAt: Duration?
    /// How long stopping its subjects took: SIGTERM to exit, SIGKILL after the grace period.
    package var stoppingSubjects: Duration = .zero

    package init(path: String, title: String, outcome: Outcome, duration: Duration, log: [LogEntry], notes: [String], sweep: SweepReport? = nil) {
        self.path = path
        self.title = title
        self.outcome = outcome
        self.duration = duration
        self.log = log
        self.notes = notes
        self.sweep = sweep
    }
}
