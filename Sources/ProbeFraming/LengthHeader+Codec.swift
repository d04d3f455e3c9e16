import ProbeScript

/// The byte codec of a length header: what `set framing length|varint …` writes in front of a
/// message, and reads at the start of a stream. The header's settings and limits are the
/// language's (`LengthHeader` in ProbeScript); the bytes are the framing's.
extension LengthHeader {
    /// The head (`head`, or `after` zero bytes) and the length field announcing `count` payload
    /// bytes; nil when the field cannot hold it or `head` is not `after` bytes long.
    package func encode(_ count: Int, head: [UInt8]? = nil) -> [UInt8]? {
        let head = head ?? [UInt8](repeating: 0, count: after)
        guard count >= 0, head.count == after else { return nil }
        let (value, negative) = Int64(count).subtractingReportingOverflow(Int64(adjust))
        guard !negative, value >= 0, UInt64(value) <= largestValue else { return nil }
        switch field {
        case .fixed(let width, let bigEndian):
            let bytes = (0..<width).map { UInt8(truncatingIfNeeded: UInt64(value) >> (8 * UInt64($0))) }
            return head + (bigEndian ? bytes.reversed() : bytes)
        case .varint:
            var rest = UInt64(value)
            var bytes: [UInt8] = []
            repeat {
                bytes.append(UInt8(rest & 0x7F) | (rest > 0x7F ? 0x80 : 0))
                rest >>= 7
            } while rest > 0
            return head + bytes
        }
    }

    /// What the start of a stream holds: too few bytes yet, a header (its size with the head,
    /// and the payload length it announces), or a header that cannot be (a varint too long, a
    /// length below zero after `adjust`), said in words that name its bytes.
    package enum Reading: Sendable, Equatable {
        case needMore
        case header(size: Int, payload: UInt64)
        case invalid(String)
    }

    /// Reads the header at the start of `bytes`; it never looks past `longest` bytes.
    package func read<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Reading {
        let field = bytes.dropFirst(after)
        var value: UInt64 = 0
        var size = 0
        switch self.field {
        case .fixed(let width, let bigEndian):
            guard field.count >= width else { return .needMore }
            let ordered = bigEndian ? Array(field.prefix(width)) : Array(field.prefix(width).reversed())
            value = ordered.reduce(0) { $0 << 8 | UInt64($1) }
            size = width
        case .varint:
            var shift: UInt64 = 0
            var ended = false
            for byte in field.prefix(varintLimit) {
                size += 1
                if shift < 64 { value |= UInt64(byte & 0x7F) << shift }
                shift += 7
                ended = byte & 0x80 == 0
                if ended { break }
                if size == varintLimit {
                    return .invalid("a varint length longer than \(varintLimit) bytes: hex\"\(ByteEscaper.hex(bytes.prefix(after + size)))\"")
                }
            }
            guard ended else { return .needMore }
        }
        guard let payload = payload(of: value) else {
            return .invalid("the length field hex\"\(ByteEscaper.hex(bytes.prefix(after + size).dropFirst(after)))\" holds \(value), "
                            + "below zero after adjust \(adjust)")
        }
        return .header(size: after + size, payload: payload)
    }

    /// Why a message cannot go out under a header, in words for the step's failure.
    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
    }

    /// `message` with its head (`head`, or `after` zero bytes) and its length field in front;
    /// a message the field cannot announce is refused, saying why. `head` is `after` bytes.
    package func frame(_ message: [UInt8], head: [UInt8]?) throws -> [UInt8] {
        guard let header = encode(message.count, head: head) else {
            if message.count < adjust {
                throw Refusal(description: "a \(message.count)-byte message is shorter than `adjust \(adjust)` takes off: "
                              + "its length field would be \(message.count - adjust), below zero")
            }
            throw Refusal(description: "a \(message.count)-byte message does not fit \(self) (at most \(largest) bytes)")
        }
        return header + message
    }

    /// What a sent message's bytes hold, for the step log: "a 4-byte big-endian length and 12
    /// bytes"; nil when they do not start with a header.
    package func summary(ofMessage bytes: [UInt8]) -> String? {
        guard case .header(_, let length) = read(bytes) else { return nil }
        return "\(self) and \(length) bytes"
    }
}
