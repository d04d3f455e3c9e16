import NIOConcurrencyHelpers

/// The last bytes a subject wrote to one stream: bounded however much it writes.
final class OutputTail: @unchecked Sendable {
    private let lock = NIOLock()
    private let capacity: Int
    private var bytes: [UInt8] = []
    private var total = 0
    /// Complete lines not yet offered to a readiness check.
    private var pendingLines: [String] = []
    private var partialLine: [UInt8] = []

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
                    var line = partialLine
                    if line.last == 13 { line.removeLast() }
                    if pendingLines.count < 1024 { pendingLines.append(String(decoding: line, as: UTF8.self)) }
                    partialLine = []
                } else if partialLine.count < 64 * 1024 {
                    partialLine.append(byte)
                }
            }
        }
    }

    /// Lines completed since the last call.
    func takeLines() -> [String] {
        lock.withLock {
            defer { pendingLines = [] }
            return pendingLines
        }
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
