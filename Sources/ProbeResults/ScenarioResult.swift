/// The outcome of running one scenario.
public struct ScenarioResult: Sendable {
    public enum Outcome: Sendable {
        case passed
        case failed(StepFailure)
        case skipped(String)

        public var passed: Bool {
            if case .passed = self { return true }
            return false
        }

        public var skipped: Bool {
            if case .skipped = self { return true }
            return false
        }
    }

    /// Why it failed, or nil when it passed or was skipped.
    public var failure: StepFailure? {
        if case .failed(let failure) = outcome { return failure }
        return nil
    }

    public var path: String
    public var title: String
    public var outcome: Outcome
    public var duration: Duration
    public var log: [LogEntry]
    /// Facts worth reporting even on success, such as the random seed.
    public var notes: [String]
    /// Each offset's outcome when the scenario has a `split sweep`.
    public var sweep: SweepReport?
    /// One summary per `parallel` block that ran.
    public var parallel: [ParallelSummary] = []
    /// The captured segments, when `RunOptions.recordWire` asked for them and capture ran.
    public var wire: [WireEvent] = []
    /// The steps as they began (the first 2,000), when `RunOptions.recordWire` asked for them.
    public var steps: [StepSpan] = []
    /// How many `assert wire` steps did not judge anything because the run could not capture:
    /// a pass with these is a pass of the other steps only, and every report says so.
    public var skippedWireChecks = 0
    /// When the failing step failed, since the scenario started (nil when it passed).
    public var failedAt: Duration?
    /// How long stopping its subjects took: SIGTERM to exit, SIGKILL after the grace period.
    public var stoppingSubjects: Duration = .zero

    public init(path: String, title: String, outcome: Outcome, duration: Duration, log: [LogEntry], notes: [String], sweep: SweepReport? = nil) {
        self.path = path
        self.title = title
        self.outcome = outcome
        self.duration = duration
        self.log = log
        self.notes = notes
        self.sweep = sweep
    }
}
