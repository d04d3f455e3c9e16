import ProbeScript

/// The records of a TLS connection as rows of text, in the order they crossed the wire: when
/// (the TCP segment that completed each), which way, what type, and what it held: handshake
/// messages by name, alerts by name, application data as its decrypted bytes.
package enum TLSRecordRows {
    /// `clientPort` names the side drawn on the left (→).
    package static func rows(_ conversation: TLSConversation, client: DirectionTrace, server: DirectionTrace, start: Double,
                            payloadLimit: Int = 60) -> [String] {
        var timed: [(time: Double, order: Int, text: String)] = []
        for (records, trace, arrow) in [(conversation.clientRecords, client, "→"), (conversation.serverRecords, server, "←")] {
            for record in records {
                let range = (record.streamRange.upperBound - 1)..<record.streamRange.upperBound
                let time = trace.carriers(of: range).last?.segment.timestamp ?? start
                timed.append((time, timed.count, "+\(DurationFormat.fixed(time - start, places: 6))s \(arrow) " + describe(record, payloadLimit)))
            }
        }
        return timed.sorted { ($0.time, $0.order) < ($1.time, $1.order) }.map(\.text)
    }

    /// "handshake ServerHello", "application-data 6 bytes "pong\r\n"", "alert close_notify".
    package static func describe(_ record: TLSConversation.Record, _ payloadLimit: Int) -> String {
        let size = record.streamRange.count - 5
        guard let type = record.contentType else {
            return record.encrypted && !record.opened && record.plaintext.isEmpty
                ? "encrypted record, \(size) bytes (not decrypted)" : "record of type \(record.outerType), \(size) bytes"
        }
        let sealed = record.encrypted ? " (decrypted)" : ""
        switch type {
        case .handshake:
            let names = handshakeMessages(record.plaintext).map(handshakeName)
            return "handshake \(names.isEmpty ? "(\(size) bytes)" : names.joined(separator: ", "))\(sealed)"
        case .alert:
            guard record.plaintext.count == 2 else { return "alert (\(size) bytes)" }
            return "alert \(TLSAlert.name(of: record.plaintext[1]))\(record.plaintext[0] == 2 ? " (fatal)" : "")\(sealed)"
        case .applicationData:
            let shown = record.plaintext.prefix(payloadLimit)
            return "application-data \(record.plaintext.count) bytes \"\(ByteEscaper.escape(shown))\"" + (record.plaintext.count > shown.count ? "…" : "")
        case .changeCipherSpec, .heartbeat:
            return "\(type)"
        }
    }

    /// The message types of the handshake messages that start in `bytes`.
    static func handshakeMessages(_ bytes: [UInt8]) -> [UInt8] {
        var reader = ByteReader(bytes)
        var types: [UInt8] = []
        while let type = reader.u8(), let length = reader.u24() {
            types.append(type)
            guard reader.bytes(length) != nil else { break }
        }
        return types
    }

    static func handshakeName(_ type: UInt8) -> String {
        switch type {
        case 1: return "ClientHello"
        case 2: return "ServerHello"
        case 4: return "NewSessionTicket"
        case 5: return "EndOfEarlyData"
        case 8: return "EncryptedExtensions"
        case 11: return "Certificate"
        case 12: return "ServerKeyExchange"
        case 13: return "CertificateRequest"
        case 14: return "ServerHelloDone"
        case 15: return "CertificateVerify"
        case 16: return "ClientKeyExchange"
        case 20: return "Finished"
        case 24: return "KeyUpdate"
        default: return "message \(type)"
        }
    }
}
