import ProbeResults
import ProbeScript

/// A scenario's step log, bounded so that a soak test of millions of steps runs in constant
/// memory: it keeps the first `headLimit` entries, the latest `tailLimit`, and a count of the
/// ones between that it let go. A message is built only when its entry is kept: the latest
/// entries hold their messages unbuilt until the log is read, and the ones let go never build
/// theirs (escaping a send's or an expect's bytes costs more than the round trip's own work).
struct StepLog {
    static let headLimit = 1000
    static let tailLimit = 1000

    /// What builds an entry's message: a closure, or a step's object (see `LoggedStep`).
    enum Message {
        case closure(() -> String)
        case step(any LoggedStep)

        var text: String {
            switch self {
            case .closure(let make): return make()
            case .step(let step): return step.logMessage
            }
        }
    }

    /// An entry whose message is built when the log is read, if the entry is still kept then.
    private struct Pending {
        /// Nanoseconds into the run: made a `Duration` only if the entry is read.
        let offset: Int64
        /// Whose location the entry gives: one reference, where a location is four words.
        let statement: Statement?
        let message: Message
    }

    private var head: [LogEntry] = []
    /// The latest entries, a ring once full: the oldest is at `tailStart`.
    private var tail: [Pending] = []
    private var tailStart = 0
    private(set) var omitted = 0

    /// Logs the message `message` builds, `offset` nanoseconds into the run, at `statement`'s
    /// location; `message` must capture the values it shows, not state that changes later.
    /// Returns the step's object whose entry the log no longer keeps, or that it kept only as
    /// built text, if any.
    mutating func append(atNanoseconds offset: Int64, _ statement: Statement?, _ message: Message) -> (any LoggedStep)? {
        if head.count < Self.headLimit {
            head.append(LogEntry(offset: .nanoseconds(offset), location: statement?.location, message: message.text))
            if case .step(let step) = message { return step }
        } else if tail.count < Self.tailLimit {
            tail.append(Pending(offset: offset, statement: statement, message: message))
        } else {
            // Swapped in, the oldest entry comes out without a copy of what it holds.
            var evicted = Pending(offset: offset, statement: statement, message: message)
            swap(&tail[tailStart], &evicted)
            tailStart = tailStart + 1 == Self.tailLimit ? 0 : tailStart + 1
            omitted += 1
            if case .step(let step) = evicted.message { return step }
        }
        return nil
    }

    /// The kept entries in order, with one line where entries were let go.
    var entries: [LogEntry] {
        let latest = (tail[tailStart...] + tail[..<tailStart]).map { LogEntry(offset: .nanoseconds($0.offset), location: $0.statement?.location, message: $0.message.text) }
        guard omitted > 0, let resumed = latest.first else { return head + latest }
        let gap = LogEntry(offset: resumed.offset, location: nil,
                           message: "… \(omitted) steps not kept: the log keeps the first \(Self.headLimit) and the last \(Self.tailLimit)")
        return head + [gap] + latest
    }
}
