/// One message of a whole stream: the stream range it took with its framing (terminator,
/// header, frame header and mask), and its payload without (a WebSocket frame's unmasked).
package struct FramedRange: Sendable, Equatable {
    package var range: Range<Int>
    package var payload: [UInt8]

    package init(range: Range<Int>, payload: [UInt8]) {
        self.range = range
        self.payload = payload
    }
}
