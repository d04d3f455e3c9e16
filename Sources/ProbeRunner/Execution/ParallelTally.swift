import ProbeResults
import ProbeScript

/// The copies of one `parallel` block still running, and the failures of those that ended:
/// one for the block, shared by its copies, which report to it as they end.
final class ParallelTally {
    /// The `parallel` statement.
    let statement: Statement
    private var left: Int
    private var failures: [(copy: Int, failure: StepFailure)] = []
    private let done: ([(copy: Int, failure: StepFailure)]) -> Void

    /// `done` gets the failures in copy order once all `copies` have ended.
    init(_ statement: Statement, copies: Int, done: @escaping ([(copy: Int, failure: StepFailure)]) -> Void) {
        self.statement = statement
        self.left = copies
        self.done = done
    }

    func ended(copy: Int, failure: StepFailure?) {
        if let failure { failures.append((copy, failure)) }
        left -= 1
        if left == 0 { done(failures.sorted { $0.copy < $1.copy }) }
    }
}
