import NIOCore

/// How a connection's byte stream is cut into messages, and how a message is put on it: the
/// layer between the socket and the expects, and the one that wire checks run over a captured
/// stream. Byte-level send modifiers (split, chunk, drip) act below it, on the framed bytes;
/// message expects (`expect line`) read above it, and byte expects (`expect bytes`, `expect
/// until`) read the stream beside it.
package protocol Framing: Sendable {
    /// What its messages are called in reports: "line", "message".
    var unit: String { get }

    /// A message as it goes on the wire.
    func frame(_ message: consuming [UInt8]) -> [UInt8]

    /// Takes the next whole message from `buffer`, or says why there is none to come; nil
    /// means wait for more. `end` is how the inbound side ended, if it has. A message that is
    /// the bytes `expected` comes back as that array itself, not a copy: an expect that
    /// matches makes none.
    mutating func nextMessage(from buffer: inout ByteBuffer, end: InboundEnd?, sharing expected: [UInt8]?) -> FramedMessage?

    /// What came before the payload of the message `nextMessage` last took (a head and a
    /// length field); nil for lines.
    var lastHeader: FramedHeader? { get }

    /// How many unconsumed bytes it may need to see before it can decide.
    var bufferNeeded: Int { get }

    /// Why no message came when what arrived is framed otherwise ("received a line ending in
    /// a bare LF at offset 4; the terminator is CRLF"); nil when nothing says so.
    func misframing(_ pending: [UInt8]) -> String?
}

extension Framing {
    /// Takes the next whole message from `buffer`, or says why there is none to come; nil
    /// means wait for more. `end` is how the inbound side ended, if it has.
    package mutating func nextMessage(from buffer: inout ByteBuffer, end: InboundEnd?) -> FramedMessage? {
        nextMessage(from: &buffer, end: end, sharing: nil)
    }

    /// The complete messages of a whole stream, as a capture holds it, in order: each one's
    /// range with its framing, and its payload without; an incomplete or broken last one, and
    /// what follows it, are left out.
    package func messages(in stream: [UInt8]) -> [FramedRange] {
        var framing = self
        var buffer = ByteBuffer(bytes: stream)
        var messages: [FramedRange] = []
        while true {
            let start = buffer.readerIndex
            guard case .message(let payload)? = framing.nextMessage(from: &buffer, end: nil) else { return messages }
            messages.append(FramedRange(range: start..<buffer.readerIndex, payload: payload))
        }
    }
}
