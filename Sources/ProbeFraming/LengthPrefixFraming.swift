import NIOCore
import ProbeScript

/// Length-prefixed messages (`set framing length W [big|little]`): a header of W bytes
/// announcing the payload's length, then the payload, at most `maxMessage` bytes. A header that
/// announces more fails at once, before any payload is read (or room made for it): a hostile
/// peer announcing 4 GiB, or a length above Int.max, costs nothing.
public struct LengthPrefixFraming: Framing {
    public let header: LengthHeader
    public let maxMessage: Int

    public init(header: LengthHeader, maxMessage: Int) {
        self.header = header
        self.maxMessage = maxMessage
    }

    public var unit: String { "message" }

    /// The header and the payload; a payload too long for the header's width is sent with the
    /// header's largest length, which the peer will read as a shorter message.
    public func frame(_ message: consuming [UInt8]) -> [UInt8] {
        (header.encode(message.count) ?? header.encode(Int(clamping: header.largest)) ?? []) + message
    }

    public var bufferNeeded: Int { header.width + maxMessage }

    public mutating func nextMessage(from buffer: inout ByteBuffer, end: InboundEnd?) -> FramedMessage? {
        let available = buffer.readableBytes
        guard available >= header.width else {
            guard let end else { return nil }
            return .failure(available == 0 ? "expected \(header), but \(end)"
                            : "\(end) after \(available) of the \(header.width) bytes of a length header: \(ByteEscaper.preview(buffer.readableBytesView))")
        }
        let announced = header.decode(buffer.readableBytesView)
        guard announced <= UInt64(maxMessage) else {
            return .failure("the length header \(ByteEscaper.preview(buffer.readableBytesView.prefix(header.width))) announces \(announced) bytes, "
                            + "over max-message \(maxMessage) (set max-message)")
        }
        let length = Int(announced)
        guard available >= header.width + length else {
            guard let end else { return nil }
            return .failure("\(end) after \(available - header.width) of the \(length) bytes the length header announced")
        }
        buffer.moveReaderIndex(forwardBy: header.width)
        return .message(buffer.readBytes(length: length)!)
    }

    public func misframing(_ pending: [UInt8]) -> String? {
        guard pending.count >= header.width else { return nil }
        let announced = header.decode(pending)
        guard announced > UInt64(pending.count - header.width) else { return nil }
        return "a length header announced \(announced) bytes and \(pending.count - header.width) have arrived"
    }
}
