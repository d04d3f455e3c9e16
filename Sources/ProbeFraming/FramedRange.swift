/// One message of a whole stream: the stream range it took with its framing (terminator,
/// header, frame header and mask), and its payload without (a WebSocket frame's unmasked).
public struct FramedRange: Sendable, Equatable {
    public var range: Range<Int>
    public var payload: [UInt8]

    public init(range: Range<Int>, payload: [UInt8]) {
        self.range = range
        self.payload = payload
    }
}
