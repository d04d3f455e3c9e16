import ProbeScript

/// Shows expected and received bytes one above the other with the first differing byte
/// marked by a caret: as escaped text, or as hex when either side is not printable text or the
/// expected bytes hold `??` (any byte).
enum ByteDiff {
    static func render(expected: BytePattern, received: [UInt8], expectedLabel: String = "expected", receivedLabel: String = "received") -> String {
        let width = max(expectedLabel.count, receivedLabel.count)
        let inHex = !expected.anyByteAt.isEmpty || !isText(expected.bytes) || !isText(received)
        let (expectedText, receivedText) = inHex ? ("hex\"" + expected.hex + "\"", "hex\"" + ByteEscaper.hex(received) + "\"")
            : ("\"" + ByteEscaper.escape(expected.bytes) + "\"", "\"" + ByteEscaper.escape(received) + "\"")
        var lines = [pad(expectedLabel, width) + ": " + expectedText, pad(receivedLabel, width) + ": " + receivedText]
        if let index = expected.firstDifference(received) {
            // The caret goes under the byte, past the label, ": " and the opening quote.
            let column = inHex ? 4 + index * 3 : 1 + ByteEscaper.escape(received.prefix(index)).count
            let what = index < received.count ? "first difference at byte \(index)" : "received ends at byte \(index)"
            lines.append(String(repeating: " ", count: width + 2 + column) + "^ " + what)
        }
        return lines.joined(separator: "\n")
    }

    /// Printable UTF-8 text, tabs, CR and LF allowed: what is shown as text rather than hex.
    static func isText(_ bytes: [UInt8]) -> Bool {
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        return !text.unicodeScalars.contains { $0.value < 32 && !"\r\n\t".unicodeScalars.contains($0) || $0.value == 127 }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: width - text.count)
    }

    /// A variable's value as a log shows it: `"text"` when it is printable UTF-8 text (tabs,
    /// CR and LF escaped), else `hex"00 2a ff"`.
    static func value(_ bytes: [UInt8], limit: Int = 200) -> String {
        if isText(bytes) { return ByteEscaper.preview(bytes, limit: limit) }
        return "hex\"" + ByteEscaper.hex(bytes.prefix(limit)) + "\"" + (bytes.count > limit ? "… (\(bytes.count) bytes)" : "")
    }


    /// ` → {name}="value" ...` for the variables a match set, or nothing; a value that is not
    /// printable text is shown as hex: ` → {a}="x" {pid}=hex"00 2a"`.
    static func assignments(_ captures: [String: [UInt8]]) -> String {
        captures.isEmpty ? "" : " → " + captures.sorted { $0.key < $1.key }.map { "{\($0.key)}=\(value($0.value, limit: .max))" }.joined(separator: " ")
    }
}
