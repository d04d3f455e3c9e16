import ProbeResults
import ProbeScript

/// The copies of one `parallel` block still running, and the failures of those that ended:
/// one for the block, shared by its copies, which report to it as they end (on the run's loop).
final class ParallelTally {
    /// The `parallel` statement.
    let statement: Statement
    private let copies: Int
    private var left: Int
    private var failures: [(copy: Int, failure: StepFailure)] = []
    private let done: ([(copy: Int, failure: StepFailure)]) -> Void
    /// Under `set unread note`: how many copies left bytes no expect read, how many (the least
    /// and the most), and the first copy's, which the block's one note shows.
    private var unread: (copies: Int, least: Int, most: Int, head: [UInt8])?

    /// `done` gets the failures in copy order once all `copies` have ended.
    init(_ statement: Statement, copies: Int, done: @escaping ([(copy: Int, failure: StepFailure)]) -> Void) {
        self.statement = statement
        self.copies = copies
        self.left = copies
        self.done = done
    }

    func ended(copy: Int, failure: StepFailure?) {
        if let failure { failures.append((copy, failure)) }
        left -= 1
        if left == 0 { done(failures.sorted { $0.copy < $1.copy }) }
    }

    /// A copy that passed left `count` bytes unread, starting with `head`.
    func noteUnread(_ count: Int, head: [UInt8]) {
        guard var noted = unread else {
            unread = (1, count, count, head)
            return
        }
        noted.copies += 1
        noted.least = min(noted.least, count)
        noted.most = max(noted.most, count)
        unread = noted
    }

    /// "3 of 3 copies left 6 bytes unread: "PONG\r\n"", or nil when none did.
    var unreadNote: String? {
        guard let unread else { return nil }
        let bytes = unread.least == unread.most ? "\(unread.least)" : "\(unread.least) to \(unread.most)"
        return "\(unread.copies) of \(copies) copies left \(bytes) byte\(unread.most == 1 ? "" : "s") unread"
            + (unread.copies > 1 ? " (the first: " : " (") + ByteEscaper.preview(unread.head, limit: 80, total: unread.least == unread.most ? unread.least : unread.head.count) + ")"
    }
}
