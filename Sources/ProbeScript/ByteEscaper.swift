/// Shows bytes as readable text: `\r`, `\n`, `\t`, `\0`, `\\`, `\"` and `\xHH` made visible.
package enum ByteEscaper {
    package static func escape<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out = ""
        for byte in bytes { out += escape(byte) }
        return out
    }

    package static func escape(_ byte: UInt8) -> String {
        switch byte {
        case 13: return "\\r"
        case 10: return "\\n"
        case 9: return "\\t"
        case 0: return "\\0"
        case 92: return "\\\\"
        case 34: return "\\\""
        case 32...126: return String(UnicodeScalar(byte))
        default: return "\\x" + hex(byte)
        }
    }

    /// Two hex digits: `0a`.
    package static func hex(_ byte: UInt8) -> String {
        (byte < 16 ? "0" : "") + String(byte, radix: 16)
    }

    /// Two hex digits a byte, spaced: `00 2a ff`.
    package static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        bytes.map { hex($0) }.joined(separator: " ")
    }

    /// How messages show a value: `"..."` when the bytes are text, else `hex"00 2a"`, with at
    /// most `limit` bytes shown (64 as hex) and how many were left out; `total` is the length
    /// of the whole when `bytes` is only its beginning.
    package static func preview<Bytes: Collection>(_ bytes: Bytes, limit: Int = 200, total: Int? = nil) -> String where Bytes.Element == UInt8 {
        previewing(bytes, limit: limit, total: total)
    }

    /// The same for an array, compiled here for it: from another module the generic form reads
    /// each byte through the collection, an allocation a byte (every step's log entry shows one).
    package static func preview(_ bytes: [UInt8], limit: Int = 200, total: Int? = nil) -> String {
        previewing(bytes, limit: limit, total: total)
    }

    /// The same for the start of an array (a send's log shows its first 80 bytes).
    package static func preview(_ bytes: ArraySlice<UInt8>, limit: Int = 200, total: Int? = nil) -> String {
        previewing(bytes, limit: limit, total: total)
    }

    private static func previewing<Bytes: Collection>(_ bytes: Bytes, limit: Int, total: Int?) -> String where Bytes.Element == UInt8 {
        let total = total ?? bytes.count
        guard ScenarioLiteral.isText(bytes) else {
            let shown = min(limit, 64)
            return "hex\"" + hex(bytes.prefix(shown)) + "\"" + (total > shown ? "… (\(total) bytes)" : "")
        }
        if total <= limit { return "\"" + escape(bytes) + "\"" }
        return "\"" + escape(bytes.prefix(limit)) + "\"… (\(total) bytes)"
    }
}
