import ProbeScript

/// How a stream is cut into the messages wire checks of messages read: lines ended by a
/// terminator, or length-prefixed messages.
public enum MessageUnits: Sendable {
    case lines(terminator: [UInt8])
    case length(LengthHeader)

    /// What one is called in a verdict.
    public var name: String {
        if case .lines = self { return "line" }
        return "message"
    }

    /// The stream ranges of the complete messages, each with its framing (terminator or
    /// header), in order; an incomplete last one is left out.
    public func ranges(in stream: [UInt8]) -> [Range<Int>] {
        switch self {
        case .lines(let terminator):
            return WireEvaluator.lineRanges(stream, terminator: terminator)
        case .length(let header):
            var ranges: [Range<Int>] = []
            var offset = 0
            while stream.count - offset >= header.width {
                let announced = header.decode(stream[offset...])
                guard announced <= UInt64(stream.count - offset - header.width) else { break }
                let end = offset + header.width + Int(announced)
                ranges.append(offset..<end)
                offset = end
            }
            return ranges
        }
    }

    /// The message in `range` of `stream`, its framing removed.
    public func payload(_ range: Range<Int>, in stream: [UInt8]) -> ArraySlice<UInt8> {
        switch self {
        case .lines(let terminator): return stream[range.lowerBound..<(range.upperBound - terminator.count)]
        case .length(let header): return stream[(range.lowerBound + header.width)..<range.upperBound]
        }
    }
}
