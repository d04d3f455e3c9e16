import ProbeScript

/// How a stream is cut into the messages wire checks of messages read: lines ended by a
/// terminator, length-prefixed messages, or the messages or frames of a WebSocket connection.
public enum MessageUnits: Sendable {
    case lines(terminator: [UInt8])
    case length(LengthHeader)
    /// WebSocket messages, after the HTTP head of the upgrade: each data message with all its
    /// fragments (from its first frame to the one with FIN), each control frame on its own.
    case webSocket
    /// WebSocket frames, each on its own (`frames unsplit`).
    case webSocketFrames

    /// What one is called in a verdict.
    public var name: String {
        switch self {
        case .lines: return "line"
        case .length, .webSocket: return "message"
        case .webSocketFrames: return "frame"
        }
    }

    /// The complete messages in order: each one's stream range with its framing (terminator,
    /// header, frame header and mask), and its payload without (a frame's unmasked); an
    /// incomplete last one is left out.
    public func messages(in stream: [UInt8]) -> [(range: Range<Int>, payload: ArraySlice<UInt8>)] {
        switch self {
        case .lines(let terminator):
            return WireEvaluator.lineRanges(stream, terminator: terminator).map { ($0, stream[$0.lowerBound..<($0.upperBound - terminator.count)]) }
        case .length(let header):
            var messages: [(range: Range<Int>, payload: ArraySlice<UInt8>)] = []
            var offset = 0
            while stream.count - offset >= header.width {
                let announced = header.decode(stream[offset...])
                guard announced <= UInt64(stream.count - offset - header.width) else { break }
                let end = offset + header.width + Int(announced)
                messages.append((offset..<end, stream[(offset + header.width)..<end]))
                offset = end
            }
            return messages
        case .webSocketFrames:
            return WebSocketWireFrame.framesAfterUpgrade(in: stream).map { ($0.range, $0.payload[...]) }
        case .webSocket:
            return Self.webSocketMessages(WebSocketWireFrame.framesAfterUpgrade(in: stream))
        }
    }

    /// Frames gathered into messages: a data frame without FIN opens a message that the
    /// continuation frames carry on and the one with FIN ends (control frames may stand between
    /// them, each a message of its own); a message still open at the end is left out.
    private static func webSocketMessages(_ frames: [WebSocketWireFrame]) -> [(range: Range<Int>, payload: ArraySlice<UInt8>)] {
        var messages: [(range: Range<Int>, payload: ArraySlice<UInt8>)] = []
        var open: (start: Int, payload: [UInt8])?
        for frame in frames {
            let isControl = frame.opcode == "ping" || frame.opcode == "pong" || frame.opcode == "close"
            if isControl {
                messages.append((frame.range, frame.payload[...]))
                continue
            }
            var message: (start: Int, payload: [UInt8]) = frame.opcode == "continuation" ? open ?? (frame.range.lowerBound, []) : (frame.range.lowerBound, [])
            message.payload += frame.payload
            if frame.fin {
                messages.append((message.start..<frame.range.upperBound, message.payload[...]))
                open = nil
            } else {
                open = message
            }
        }
        return messages
    }
}
