import ProbeResults
import ProbeScript

/// A scenario's step log, bounded so that a soak test of millions of steps runs in constant
/// memory: it keeps the first `headLimit` entries, the latest `tailLimit`, and a count of the
/// ones between that it let go.
struct StepLog {
    static let headLimit = 1000
    static let tailLimit = 1000

    private var head: [LogEntry] = []
    /// The latest entries, a ring once full: the oldest is at `tailStart`.
    private var tail: [LogEntry] = []
    private var tailStart = 0
    private(set) var omitted = 0

    mutating func append(_ entry: LogEntry) {
        if head.count < Self.headLimit {
            head.append(entry)
        } else if tail.count < Self.tailLimit {
            tail.append(entry)
        } else {
            tail[tailStart] = entry
            tailStart = (tailStart + 1) % Self.tailLimit
            omitted += 1
        }
    }

    /// The kept entries in order, with one line where entries were let go.
    var entries: [LogEntry] {
        let latest = Array(tail[tailStart...] + tail[..<tailStart])
        guard omitted > 0, let resumed = latest.first else { return head + latest }
        let gap = LogEntry(offset: resumed.offset, location: nil,
                           message: "… \(omitted) steps not kept: the log keeps the first \(Self.headLimit) and the last \(Self.tailLimit)")
        return head + [gap] + latest
    }
}
