/// What a sweep found: each offset's outcome.
package struct SweepReport: Sendable {
    package var plan: SplitSweep
    /// Each offset's run: whether it passed, and how long it took.
    package var outcomes: [(offset: Int, passed: Bool, duration: Duration)]

    package init(plan: SplitSweep, outcomes: [(offset: Int, passed: Bool, duration: Duration)]) {
        self.plan = plan
        self.outcomes = outcomes
    }

    package var failingOffsets: [Int] { outcomes.filter { !$0.passed }.map(\.offset) }

    package var summary: String {
        let failing = failingOffsets
        var text = "split sweep over a \(plan.messageLength)-byte message: \(outcomes.count - failing.count) of \(outcomes.count) offsets pass"
        if plan.sampled { text += " (offsets sampled: the message has \(plan.messageLength - 1) split points, over --sweep-limit)" }
        if let smallest = failing.first {
            let shown = failing.prefix(20).map(String.init).joined(separator: ", ") + (failing.count > 20 ? ", …" : "")
            text += "; failing offsets: \(shown); the smallest failing offset is \(smallest)"
        }
        return text
    }
}
