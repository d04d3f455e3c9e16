import ProbeScript

/// Shows expected and received bytes one above the other, escaped, with the first
/// differing byte marked by a caret.
enum ByteDiff {
    static func render(expected: [UInt8], received: [UInt8], expectedLabel: String = "expected", receivedLabel: String = "received") -> String {
        let width = max(expectedLabel.count, receivedLabel.count)
        let expectedText = ByteEscaper.escape(expected)
        let receivedText = ByteEscaper.escape(received)
        var lines = [
            pad(expectedLabel, width) + ": \"" + expectedText + "\"",
            pad(receivedLabel, width) + ": \"" + receivedText + "\"",
        ]
        if let index = firstDifference(expected, received) {
            let column = ByteEscaper.escape(received.prefix(index)).count
            let what = index < received.count ? "first difference at byte \(index)" : "received ends at byte \(index)"
            lines.append(String(repeating: " ", count: width + 3 + column) + "^ " + what)
        }
        return lines.joined(separator: "\n")
    }

    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
        let common = min(a.count, b.count)
        for index in 0..<common where a[index] != b[index] { return index }
        return a.count == b.count ? nil : common
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: width - text.count)
    }

    /// A variable's value as a log shows it: `"text"` when it is printable UTF-8 text (tabs,
    /// CR and LF escaped), else `hex"00 2a ff"`.
    static func value(_ bytes: [UInt8], limit: Int = 200) -> String {
        if let text = String(validating: bytes, as: UTF8.self), !text.unicodeScalars.contains(where: { $0.value < 32 && !"\r\n\t".unicodeScalars.contains($0) || $0.value == 127 }) {
            return ByteEscaper.preview(bytes, limit: limit)
        }
        let hex = bytes.prefix(limit).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
        return "hex\"" + hex + "\"" + (bytes.count > limit ? "… (\(bytes.count) bytes)" : "")
    }


    /// ` → {name}="value" ...` for the variables a match set, or nothing; a value that is not
    /// printable text is shown as hex: ` → {a}="x" {pid}=hex"00 2a"`.
    static func assignments(_ captures: [String: [UInt8]]) -> String {
        captures.isEmpty ? "" : " → " + captures.sorted { $0.key < $1.key }.map { "{\($0.key)}=\(value($0.value, limit: .max))" }.joined(separator: " ")
    }
}
