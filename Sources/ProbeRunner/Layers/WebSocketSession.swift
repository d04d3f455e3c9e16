import NIOCore
import NIOEmbedded
import NIOWebSocket
import ProbeFraming
import ProbeScript

/// A connection's WebSocket layer above the byte stream: its role (a client masks what it
/// sends, a server must not), the frames decoded so far, a fragmented message being joined,
/// and the pongs it owes. It reads frames through NIOWebSocket's decoder and checks what that
/// does not: the masking rule, reserved bits and opcodes, fragmentation and UTF-8 (RFC 6455).
/// Touched on the channel's event loop only, where expects are decided.
/// Sendable: confined to its channel's event loop.
final class WebSocketSession: @unchecked Sendable {
    let role: Role
    private let channel: Channel
    /// Made on the event loop when first used: an embedded channel serves one thread.
    private var decoder: EmbeddedChannel?
    /// Encodes the frames sent from the event loop (pongs, the answer to a close); one encoder
    /// for them all, as a ping flood makes many.
    private var loopCodec: WebSocketFrameCodec?
    private let maxMessage: Int
    private var events: [WebSocketEvent] = []
    /// Joins a fragmented message, as the wire checks join the captured frames.
    private var joiner: WebSocketMessageJoiner
    private var violation: String?
    /// Answer pings with pongs (`set websocket auto-pong`).
    var autoPong = true
    /// The probe has sent its close frame.
    var closeSent = false
    /// The close handshake is done: nothing more may be sent.
    private(set) var handshakeClosed = false

    /// Told the size of each frame the session writes on its own once the socket took it.
    private let countSent: @Sendable (Int) -> Void

    init(role: Role, channel: Channel, maxMessage: Int, countSent: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.role = role
        self.channel = channel
        self.countSent = countSent
        self.maxMessage = maxMessage
        self.joiner = WebSocketMessageJoiner(maxMessage: maxMessage)
    }

    /// A frame of ours: masked when we are the client. With `fragmentsOf`, the message goes in
    /// frames of that many payload bytes: the first of `opcode`, then continuations, the last fin.
    /// Off the event loop (a step's send) each call has an encoder of its own.
    func encode(_ opcode: WebSocketOpcode, _ payload: [UInt8], fragmentsOf size: Int? = nil, with codec: WebSocketFrameCodec = WebSocketFrameCodec()) -> [UInt8] {
        guard let size, size > 0, payload.count > size else { return codec.frame(opcode, payload, masked: role == .client) }
        return stride(from: 0, to: payload.count, by: size).flatMap { start -> [UInt8] in
            let end = min(start + size, payload.count)
            return codec.frame(start == 0 ? opcode : .continuation, Array(payload[start..<end]), masked: role == .client,
                                             fin: end == payload.count)
        }
    }

    /// Sends a frame at once (a pong, the answer to a close), outside any step's send.
    func sendNow(_ opcode: WebSocketOpcode, _ payload: [UInt8]) {
        let codec = loopCodec ?? WebSocketFrameCodec()
        loopCodec = codec
        channel.writeAndFlush(ByteBuffer(bytes: encode(opcode, payload, with: codec)), counting: countSent)
    }

    /// The next message or control frame from `buffer` (whose bytes it takes), a violation of
    /// RFC 6455, or nil to wait for more.
    func next(from buffer: inout ByteBuffer, end: InboundEnd?) -> Result<WebSocketEvent, WebSocketViolation>? {
        if !events.isEmpty { return .success(events.removeFirst()) }
        if let violation { return .failure(WebSocketViolation(message: violation)) }
        if buffer.readableBytes > 0 {
            let bytes = buffer.readSlice(length: buffer.readableBytes)!
            let decoder = self.decoder ?? WebSocketFrameCodec.decoder(maxFrameSize: maxMessage)
            self.decoder = decoder
            do {
                try decoder.writeInbound(bytes)
                while let frame = try decoder.readInbound(as: WebSocketFrame.self) {
                    take(frame)
                    if violation != nil { break }
                }
            } catch {
                violation = Self.describe(error)
            }
        }
        if !events.isEmpty { return .success(events.removeFirst()) }
        if let violation { return .failure(WebSocketViolation(message: violation)) }
        guard let end else { return nil }
        return .failure(WebSocketViolation(message: "expected a WebSocket frame, but \(end)", end: end))
    }

    /// Puts `event` back, first: the next expect reads it again.
    func keep(_ event: WebSocketEvent) {
        events.insert(event, at: 0)
    }

    private func take(_ frame: WebSocketFrame) {
        if role == .client, frame.maskKey != nil {
            violation = "the server sent a masked frame (RFC 6455 §5.1: a server must not mask its frames)"
            return
        }
        if role == .server, frame.maskKey == nil {
            violation = "the client sent an unmasked frame (RFC 6455 §5.1: a client must mask every frame)"
            return
        }
        if frame.rsv1 || frame.rsv2 || frame.rsv3 {
            let bit = frame.rsv1 ? "RSV1" : frame.rsv2 ? "RSV2" : "RSV3"
            violation = "a frame with \(bit) set, and no extension agreed on (RFC 6455 §5.2)"
            return
        }
        let payload = Array(frame.unmaskedData.readableBytesView)
        switch frame.opcode {
        case .ping: events.append(.ping(payload))
        case .pong: events.append(.pong(payload))
        case .connectionClose:
            guard payload.count != 1 else {
                violation = "a close frame of 1 byte (RFC 6455 §5.5.1: a close code takes 2)"
                return
            }
            let code = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil
            if let code, !Self.maySend(closeCode: code) {
                violation = "a close frame with the code \(code), which must never be sent (RFC 6455 §7.4: 1000-1003, 1007-1014 and 3000-4999 may be)"
                return
            }
            guard let reason = String(validating: payload.dropFirst(2), as: UTF8.self) else {
                violation = "a close reason that is not UTF-8 (RFC 6455 §5.5.1)"
                return
            }
            events.append(.close(code: code, reason: reason))
        case .text, .binary, .continuation:
            do {
                if let message = try joiner.take(frame.opcode, fin: frame.fin, payload: payload) { finish(message.opcode, message.payload) }
            } catch {
                violation = error.description
            }
        default:
            violation = "a frame with the reserved opcode \(frame.opcode) (RFC 6455 §5.2)"
        }
    }

    private func finish(_ opcode: WebSocketOpcode, _ bytes: [UInt8]) {
        guard opcode == .text else {
            events.append(.binary(bytes))
            return
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            violation = "a text message that is not valid UTF-8 (RFC 6455 §8.1)"
            return
        }
        events.append(.text(bytes))
    }

    /// Messages and control frames decoded (from the same read as one an expect took) that no
    /// expect has read yet: unread, as bytes in the buffer are.
    var undelivered: [WebSocketEvent] { events }

    /// How many unconsumed bytes a frame may need: a message, and the longest frame header.
    var bufferNeeded: Int { maxMessage + 14 }

    /// The peer's close frame was expected: answers it with ours (its code echoed), unless ours
    /// went first. The close handshake is then done, and as a server the probe closes TCP first
    /// (RFC 6455 §7.1.1: FIN, over TLS close_notify and FIN), reading on to the client's FIN.
    func closeHandshakeDone(peerCode code: Int?) {
        handshakeClosed = true
        if !closeSent {
            closeSent = true
            sendNow(.connectionClose, code.map { [UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] } ?? [])
        }
        if role == .server { channel.close(mode: .output, promise: nil) }
    }

    /// Whether a close frame may carry `code` on the wire (RFC 6455 §7.4.1 and §7.4.2, with
    /// IANA's 1012-1014): 1004, 1005, 1006 and 1015 are reserved, 0-999 and 1016-2999 unassigned.
    static func maySend(closeCode code: Int) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }

    /// Answers a ping the scenario does not wait for; or, when the pongs already owed are more
    /// than the socket takes (the channel is past its high-water mark of unsent bytes), says
    /// why it stopped: a peer that floods pings and never reads would have the pongs pile up.
    func answer(ping payload: [UInt8]) -> WebSocketViolation? {
        guard channel.isWritable else {
            return WebSocketViolation(message: "the peer sends pings but does not read the pongs: auto-pong stopped with the socket's send buffer full and more pongs owed")
        }
        sendNow(.pong, payload)
        return nil
    }

    private static func describe(_ error: Error) -> String {
        switch error as? NIOWebSocketError {
        case .invalidFrameLength?: return "a frame over max-message (set max-message)"
        case .fragmentedControlFrame?: return "a fragmented control frame (RFC 6455 §5.5: control frames must not be fragmented)"
        case .multiByteControlFrameLength?: return "a control frame over 125 bytes (RFC 6455 §5.5)"
        case nil: return "an unreadable frame: \(error)"
        }
    }
}

/// A peer's frame that breaks RFC 6455, or the stream's end before a frame.
struct WebSocketViolation: Error {
    let message: String
    /// How the stream ended, when that is what came instead of a frame.
    var end: InboundEnd?
}
