import NIOCore
import ProbeScript

/// Length-prefixed messages (`set framing length|varint …`): head bytes and a length field
/// announcing the payload's length (see `LengthHeader`), then the payload, at most `maxMessage`
/// bytes. A header that announces more, or cannot be (a varint too long, a length below zero),
/// fails at once, before any payload is read (or room made for it): a hostile peer announcing
/// 4 GiB, or a length above Int.max, costs nothing.
package struct LengthPrefixFraming: Framing {
    package let header: LengthHeader
    package let maxMessage: Int
    package private(set) var lastHeader: FramedHeader?

    package init(header: LengthHeader, maxMessage: Int) {
        self.header = header
        self.maxMessage = maxMessage
    }

    package var unit: String { "message" }

    /// The header and the payload; a payload too long for the header is sent with the
    /// header's largest length, which the peer will read as a shorter message.
    package func frame(_ message: consuming [UInt8]) -> [UInt8] {
        (header.encode(message.count) ?? header.encode(Int(clamping: header.largest)) ?? []) + message
    }

    package var bufferNeeded: Int { header.longest + maxMessage }

    package mutating func nextMessage(from buffer: inout ByteBuffer, end: InboundEnd?, sharing expected: [UInt8]?) -> FramedMessage? {
        let available = buffer.readableBytes
        switch header.read(buffer.readableBytesView) {
        case .needMore:
            guard let end else { return nil }
            if available == 0 { return .failure("expected \(header), but \(end)") }
            let part = if case .fixed = header.field { "\(available) of the \(header.longest) bytes of a length header" }
                else { "\(available) bytes of an unfinished length header (\(header))" }
            return .failure("\(end) after \(part): \(ByteEscaper.preview(buffer.readableBytesView))")
        case .invalid(let why):
            return .failure(why)
        case .header(let size, let announced):
            guard announced <= UInt64(maxMessage) else {
                return .failure("the length header \(ByteEscaper.preview(buffer.readableBytesView.prefix(size))) announces \(announced) bytes, "
                                + "over max-message \(maxMessage) (set max-message)")
            }
            let length = Int(announced)
            guard available >= size + length else {
                guard let end else { return nil }
                return .failure("\(end) after \(available - size) of the \(length) bytes the length header announced")
            }
            lastHeader = FramedHeader(bytes: buffer.readSlice(length: size)!, headLength: header.after, isVarint: header.field == .varint)
            return .message(buffer.readBytes(length: length, sharing: expected))
        }
    }

    package func misframing(_ pending: [UInt8]) -> String? {
        guard case .header(let size, let announced) = header.read(pending), announced > UInt64(pending.count - size) else { return nil }
        let arrived = UInt64(pending.count - size)
        return "a length header announced \(announced) bytes and \(arrived) have arrived: the message lacks \(announced - arrived)"
    }
}
