/// Escaping for XML and HTML text and attributes; control characters other than tab, LF and CR
/// (which XML 1.0 forbids) are shown as `\xHH`.
package enum XMLEscaping {
    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0xFFFE...0xFFFF).contains(scalar.value) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\x" + (hex.count == 1 ? "0" : "") + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
