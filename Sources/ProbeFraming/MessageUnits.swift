import NIOWebSocket
import ProbeScript

/// How a captured stream is cut into the messages that wire checks of messages read: lines
/// ended by a terminator, length-prefixed messages (each by the codec a connection reads
/// them with), the messages or frames of a WebSocket connection, or HTTP/2's frames.
package enum MessageUnits: Sendable {
    case lines(terminator: [UInt8])
    case length(LengthHeader)
    /// WebSocket messages, after the HTTP head of the upgrade: each data message with all its
    /// fragments (from its first frame to the one with FIN), each control frame on its own.
    case webSocket
    /// WebSocket frames, each on its own (`frames unsplit`).
    case webSocketFrames
    /// HTTP/2 frames, each whole (header and payload), after the client's preface.
    case http2Frames

    /// Whether the units begin where the protocol says (after an upgrade or a preface), not
    /// where `set framing` took effect.
    private var findsItsOwnStart: Bool {
        switch self {
        case .lines, .length: false
        case .webSocket, .webSocketFrames, .http2Frames: true
        }
    }

    /// What one is called in a verdict.
    package var name: String {
        switch self {
        case .lines: return "line"
        case .length, .webSocket: return "message"
        case .webSocketFrames, .http2Frames: return "frame"
        }
    }

    /// One in a verdict: `"hello"` (its payload, quoted), or an HTTP/2 frame decoded.
    package func describe(_ message: FramedRange) -> String {
        if case .http2Frames = self, let frame = HTTP2Frame.frames(inCaptured: message.payload).first?.frame { return frame.summary }
        return "\"" + ByteEscaper.escape(message.payload.prefix(60)) + "\""
    }

    /// The complete messages in order: each one's stream range with its framing (terminator,
    /// header, frame header and mask), and its payload without (a WebSocket frame's unmasked;
    /// an HTTP/2 frame's payload is the whole frame, header too); an incomplete last one is
    /// left out. Lines and length-prefixed messages are cut from `start`, where the framing
    /// took effect: the bytes before it are no message. (WebSocket frames begin after the
    /// upgrade's HTTP head, HTTP/2's after the preface.)
    package func messages(in stream: [UInt8], from start: Int = 0) -> [FramedRange] {
        if start > 0, !findsItsOwnStart {
            guard start < stream.count else { return [] }
            return messages(in: Array(stream[start...])).map { FramedRange(range: $0.range.lowerBound + start..<$0.range.upperBound + start, payload: $0.payload) }
        }
        switch self {
        case .lines(let terminator):
            return TerminatedLineFraming(terminator: terminator, maxLine: stream.count).messages(in: stream)
        case .length(let header):
            return LengthPrefixFraming(header: header, maxMessage: stream.count).messages(in: stream)
        case .webSocketFrames:
            return WebSocketWireFrame.framesAfterUpgrade(in: stream).map { FramedRange(range: $0.range, payload: $0.payload) }
        case .webSocket:
            return Self.webSocketMessages(WebSocketWireFrame.framesAfterUpgrade(in: stream))
        case .http2Frames:
            return HTTP2Frame.frames(inCaptured: stream).map { FramedRange(range: $0.range, payload: Array(stream[$0.range])) }
        }
    }

    /// Frames gathered into messages as the live reader gathers them (`WebSocketMessageJoiner`),
    /// control frames each a message of its own; a message still open at the end is left out,
    /// and so is everything from a frame that breaks the fragmentation rules, or has a reserved
    /// opcode, on.
    private static func webSocketMessages(_ frames: [WebSocketWireFrame]) -> [FramedRange] {
        var messages: [FramedRange] = []
        var joiner = WebSocketMessageJoiner()
        for frame in frames {
            switch frame.code {
            case .ping, .pong, .connectionClose:
                messages.append(FramedRange(range: frame.range, payload: frame.payload))
                continue
            case .text, .binary, .continuation:
                break
            default:
                return messages // a reserved opcode, where the live reader stops too
            }
            do {
                guard let message = try joiner.take(frame.code, fin: frame.fin, payload: frame.payload, start: frame.range.lowerBound) else { continue }
                messages.append(FramedRange(range: message.start..<frame.range.upperBound, payload: message.payload))
            } catch {
                return messages
            }
        }
        return messages
    }
}
