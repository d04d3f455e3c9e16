import ProbeScript

/// The lines `expect eventually` skipped: how many, their bytes, and the first three, which
/// the step's log and failure show ("2 lines (14 bytes): "+OK", "INFO x"").
struct SkippedLines {
    private(set) var lines = 0
    private(set) var bytes = 0
    private var first: [[UInt8]] = []

    mutating func add(_ line: [UInt8], size: Int) {
        lines += 1
        bytes += size
        if first.count < 3 { first.append(line) }
    }

    /// "0 lines", "2 lines (14 bytes): "a", "b"", "5 lines (40 bytes), the first three: …".
    var summary: String {
        guard lines > 0 else { return "0 lines" }
        return "\(lines.counted("line")) (\(bytes) bytes)" + shown
    }

    /// ": "a", "b"", or ", the first three: "a", "b", "c"" when there were more.
    var shown: String {
        (lines > first.count ? ", the first three: " : ": ") + first.map { ByteEscaper.preview($0) }.joined(separator: ", ")
    }
}
