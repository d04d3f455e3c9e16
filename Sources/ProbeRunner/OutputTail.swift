import NIOConcurrencyHelpers

/// What a subject writes to one stream: its last bytes for the failure report (bounded
/// however much it writes), and its lines in order for readiness and `expect stdout|stderr`.
final class OutputTail: @unchecked Sendable {
    /// Lines kept unread at most, and their bytes; past either, new lines are counted and dropped.
    static let pendingLimit = 1024
    static let pendingByteLimit = 1 << 20

    private let lock = NIOLock()
    private let capacity: Int
    private var bytes: [UInt8] = []
    private var total = 0
    /// Complete lines not yet taken, oldest first.
    private var pendingLines: [String] = []
    private var firstPending = 0
    private var pendingBytes = 0
    private var partialLine: [UInt8] = []
    private var dropped = 0
    private var ended = false

    init(capacity: Int = 64 * 1024) {
        self.capacity = capacity
    }

    func append(_ chunk: ArraySlice<UInt8>) {
        lock.withLock {
            total += chunk.count
            bytes += chunk.suffix(capacity)
            if bytes.count > capacity { bytes.removeFirst(bytes.count - capacity) }
            for byte in chunk {
                if byte == 10 {
                    completeLine()
                } else if partialLine.count < 64 * 1024 {
                    partialLine.append(byte)
                }
            }
        }
    }

    /// Waits until the stream has ended, or `limit` has passed.
    func waitForEnd(upTo limit: Duration) async {
        _ = await Polling.until(within: limit) { lock.withLock { ended } }
    }

    /// The stream reached its end: a last line without a newline still counts.
    func finish() {
        lock.withLock {
            if !partialLine.isEmpty { completeLine() }
            ended = true
        }
    }

    private func completeLine() {
        var line = partialLine
        if line.last == 13 { line.removeLast() }
        partialLine = []
        let text = String(decoding: line, as: UTF8.self)
        if pendingLines.count - firstPending < Self.pendingLimit, pendingBytes + text.utf8.count <= Self.pendingByteLimit {
            pendingLines.append(text)
            pendingBytes += text.utf8.count
        } else {
            dropped += 1
        }
    }

    /// The oldest line not yet taken, if one is complete.
    func takeLine() -> String? {
        lock.withLock {
            guard firstPending < pendingLines.count else { return nil }
            pendingBytes -= pendingLines[firstPending].utf8.count
            defer {
                firstPending += 1
                if firstPending == pendingLines.count {
                    pendingLines.removeAll(keepingCapacity: true)
                    firstPending = 0
                } else if firstPending >= Self.pendingLimit {
                    pendingLines.removeFirst(firstPending)
                    firstPending = 0
                }
            }
            return pendingLines[firstPending]
        }
    }

    /// True once the stream ended and every line was taken.
    var isDrained: Bool { lock.withLock { ended && firstPending == pendingLines.count } }

    /// Lines dropped because over `pendingLimit` waited unread, and the text of a line begun
    /// but not ended yet.
    var unreadState: (dropped: Int, partial: String) {
        lock.withLock { (dropped, String(decoding: partialLine, as: UTF8.self)) }
    }

    /// The last `lines` lines kept, and how many bytes were written in all.
    func tail(lines: Int = 20) -> (text: String, total: Int) {
        lock.withLock {
            let text = String(decoding: bytes, as: UTF8.self)
            let kept = text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines + 1)
            return (kept.joined(separator: "\n"), total)
        }
    }
}
