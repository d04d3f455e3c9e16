/// The secrets of an NSS key log (`SSLKEYLOGFILE`), by label and client random: TLS 1.3's
/// traffic secrets and TLS 1.2's master secret (`CLIENT_RANDOM`).
package struct TLSKeyMaterial: Sendable {
    private var secrets: [String: [UInt8]] = [:]

    /// Reads key log lines; comments, blank lines and lines it cannot read are skipped.
    package init<Lines: Sequence>(lines: Lines) where Lines.Element: StringProtocol {
        for line in lines {
            let fields = line.split(separator: " ")
            guard fields.count == 3, !fields[0].hasPrefix("#"), let random = Self.bytes(fromHex: fields[1]),
                  let secret = Self.bytes(fromHex: fields[2]) else { continue }
            secrets[Self.key(String(fields[0]), random)] = secret
        }
    }

    package var isEmpty: Bool { secrets.isEmpty }

    /// The secret `label` names for the connection whose ClientHello carried `clientRandom`.
    package func secret(_ label: String, clientRandom: [UInt8]) -> [UInt8]? {
        secrets[Self.key(label, clientRandom)]
    }

    private static func key(_ label: String, _ random: [UInt8]) -> String {
        label + " " + random.map { String($0, radix: 16) }.joined(separator: ".")
    }

    static func bytes<Text: StringProtocol>(fromHex text: Text) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: return digit - 48
        case 97...102: return digit - 87
        case 65...70: return digit - 55
        default: return nil
        }
    }
}
