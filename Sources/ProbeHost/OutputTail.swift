import Synchronization

/// What a subject writes to one stream: its last bytes for the failure report (bounded
/// however much it writes), and its lines in order for readiness and `expect stdout|stderr`.
package final class OutputTail: Sendable {
    /// Lines kept unread at most, and their bytes; past either, new lines are counted and dropped.
    package static let pendingLimit = 1024
    package static let pendingByteLimit = 1 << 20

    /// The stream as read so far.
    private struct Stream {
        let capacity: Int
        var bytes: [UInt8] = []
        var total = 0
        /// Complete lines not yet taken, oldest first.
        var pendingLines: [String] = []
        var firstPending = 0
        var pendingBytes = 0
        var partialLine: [UInt8] = []
        var dropped = 0
        var ended = false

        mutating func completeLine() {
            var line = partialLine
            if line.last == 13 { line.removeLast() }
            partialLine = []
            let text = String(decoding: line, as: UTF8.self)
            if pendingLines.count - firstPending < OutputTail.pendingLimit, pendingBytes + text.utf8.count <= OutputTail.pendingByteLimit {
                pendingLines.append(text)
                pendingBytes += text.utf8.count
            } else {
                dropped += 1
            }
        }
    }

    private let stream: Mutex<Stream>

    package init(capacity: Int = 64 * 1024) {
        stream = Mutex(Stream(capacity: capacity))
    }

    package func append(_ chunk: ArraySlice<UInt8>) {
        stream.withLock { stream in
            stream.total += chunk.count
            stream.bytes += chunk.suffix(stream.capacity)
            if stream.bytes.count > stream.capacity { stream.bytes.removeFirst(stream.bytes.count - stream.capacity) }
            for byte in chunk {
                if byte == 10 {
                    stream.completeLine()
                } else if stream.partialLine.count < 64 * 1024 {
                    stream.partialLine.append(byte)
                }
            }
        }
    }

    /// Waits until the stream has ended, or `limit` has passed.
    package func waitForEnd(upTo limit: Duration) async {
        _ = await Polling.until(within: limit) { stream.withLock { $0.ended } }
    }

    /// The stream reached its end: a last line without a newline still counts.
    package func finish() {
        stream.withLock { stream in
            if !stream.partialLine.isEmpty { stream.completeLine() }
            stream.ended = true
        }
    }

    /// The oldest line not yet taken, if one is complete.
    package func takeLine() -> String? {
        stream.withLock { stream in
            guard stream.firstPending < stream.pendingLines.count else { return nil }
            let line = stream.pendingLines[stream.firstPending]
            stream.pendingBytes -= line.utf8.count
            stream.firstPending += 1
            if stream.firstPending == stream.pendingLines.count {
                stream.pendingLines.removeAll(keepingCapacity: true)
                stream.firstPending = 0
            } else if stream.firstPending >= Self.pendingLimit {
                stream.pendingLines.removeFirst(stream.firstPending)
                stream.firstPending = 0
            }
            return line
        }
    }

    /// True once the stream ended and every line was taken.
    package var isDrained: Bool { stream.withLock { $0.ended && $0.firstPending == $0.pendingLines.count } }

    /// Lines dropped because over `pendingLimit` waited unread, and the text of a line begun
    /// but not ended yet.
    package var unreadState: (dropped: Int, partial: String) {
        stream.withLock { ($0.dropped, String(decoding: $0.partialLine, as: UTF8.self)) }
    }

    /// The last `lines` lines kept, and how many bytes were written in all.
    package func tail(lines: Int = 20) -> (text: String, total: Int) {
        stream.withLock { stream in
            let text = String(decoding: stream.bytes, as: UTF8.self)
            let kept = text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines + 1)
            return (kept.joined(separator: "\n"), stream.total)
        }
    }
}
