import ProbeScript

/// How a stream is cut into the messages wire checks of messages read: lines ended by a
/// terminator, length-prefixed messages, or the frames of a WebSocket connection.
public enum MessageUnits: Sendable {
    case lines(terminator: [UInt8])
    case length(LengthHeader)
    /// WebSocket frames, after the HTTP head of the upgrade.
    case webSocket

    /// What one is called in a verdict.
    public var name: String {
        switch self {
        case .lines: return "line"
        case .length: return "message"
        case .webSocket: return "frame"
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
        case .webSocket:
            return WebSocketWireFrame.framesAfterUpgrade(in: stream).map { ($0.range, $0.payload[...]) }
        }
    }
}
