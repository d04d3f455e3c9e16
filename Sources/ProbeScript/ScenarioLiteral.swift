/// Bytes as a scenario writes them, for generated scenarios: a "string" when they read as text
/// (with escapes for CR, LF, tab, quotes, backslashes and braces), hex"…" otherwise.
package enum ScenarioLiteral {
    /// True when every byte is printable ASCII, CR, LF or tab, or the bytes are UTF-8 text.
    package static func isText(_ bytes: some Collection<UInt8>) -> Bool {
        if bytes.allSatisfy({ (32...126).contains($0) || $0 == 13 || $0 == 10 || $0 == 9 }) { return true }
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        return text.unicodeScalars.allSatisfy { $0.value >= 32 && $0.value != 127 || $0 == "\r" || $0 == "\n" || $0 == "\t" }
    }

    /// `"text"`, escaped so the lexer reads back exactly these bytes.
    package static func string(_ bytes: some Collection<UInt8>) -> String {
        var out = "\""
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "{": out += "\\{"
            case "}": out += "\\}"
            case _ where scalar.isASCII: out += ByteEscaper.escape(UInt8(scalar.value))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `hex"0d 0a"`.
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
        "hex\"" + ByteEscaper.hex(bytes) + "\""
    }

    /// A string when the bytes are text, else hex.
    package static func data(_ bytes: some Collection<UInt8>) -> String {
        isText(bytes) ? string(bytes) : hex(bytes)
    }
}
