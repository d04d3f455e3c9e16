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
    /// Under `set unread note`, for bytes and for each kind of decoded unit (WebSocket messages,
    /// HTTP/2 frames): how many copies left some no expect read, how many (the least and the
    /// most), and the first copy's, which the block's one note shows; in the order first seen.
    private var unread: [(unit: String, copies: Int, least: Int, most: Int, first: Shown)] = []

    /// What the note shows of the first copy's: the bytes' head, or the first unit decoded.
    enum Shown {
        case bytes([UInt8])
        case unit(String)
    }

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

    /// A copy that passed left `count` of `unit` ("byte", "HTTP/2 frame") unread, the first shown.
    func noteUnread(_ count: Int, of unit: String, first: Shown) {
        guard let index = unread.firstIndex(where: { $0.unit == unit }) else {
            unread.append((unit, 1, count, count, first))
            return
        }
        unread[index].copies += 1
        unread[index].least = min(unread[index].least, count)
        unread[index].most = max(unread[index].most, count)
    }

    /// "3 of 3 copies left 6 bytes unread (the first: "PONG\r\n")", a part for bytes and for
    /// each kind of unit, or nil when no copy left any.
    var unreadNote: String? {
        guard !unread.isEmpty else { return nil }
        return unread.map { noted in
            let count = noted.least == noted.most ? "\(noted.least)" : "\(noted.least) to \(noted.most)"
            let shown: String
            switch noted.first {
            case .bytes(let head): shown = ByteEscaper.preview(head, limit: 80, total: noted.least == noted.most ? noted.least : head.count)
            case .unit(let description): shown = description
            }
            return "\(noted.copies) of \(copies) copies left \(count) \(noted.unit)\(noted.most == 1 ? "" : "s") unread"
                + (noted.copies > 1 ? " (the first: " : " (") + shown + ")"
        }.joined(separator: "; ")
    }
}
