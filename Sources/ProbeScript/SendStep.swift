/// `send DATA [in chunks of N] [split at I,J | split sweep] [every D] [at RATE]`.
package struct SendStep: Sendable, Hashable {
    package enum Data: Sendable, Hashable {
        /// A string or hex string, sent exactly.
        case bytes(Template)
        /// Text followed by the current terminator.
        case line(Template)
        /// One message in the current framing (`set framing`): a line, or a length header and the
        /// bytes; `head` is the head bytes of `set framing … after N` (else N zero bytes).
        case message(Template, head: Template? = nil)
        case file(Template)
        case random(Argument<Int>)
        /// One WebSocket frame (`send text "x"`, `send ping`, …).
        case webSocket(WebSocketSend)
        /// `send preface` or one HTTP/2 frame (`send frame settings ack`, …).
        case http2(HTTP2Send)
    }

    package var data: Data
    /// `in frames of N`: a WebSocket message sent as fragments of N payload bytes.
    package var framesOf: Argument<Int>?
    package var chunkSize: Argument<Int>?
    package var splitOffsets: [Argument<Int>]
    package var splitSweep: Bool
    package var interval: Argument<Duration>?
    package var rate: Argument<Int>?
    /// `until closed [within D]`: the send ends, passing, when the peer closes; `within` bounds
    /// the wait from the step's start (the step timeout when nil).
    package var untilClosed: UntilClosed?

    package init(data: Data, chunkSize: Argument<Int>? = nil, splitOffsets: [Argument<Int>] = [], splitSweep: Bool = false,
                interval: Argument<Duration>? = nil, rate: Argument<Int>? = nil) {
        self.data = data
        self.chunkSize = chunkSize
        self.splitOffsets = splitOffsets
        self.splitSweep = splitSweep
        self.interval = interval
        self.rate = rate
    }
}

extension SendStep.Data {
    /// A WebSocket text or binary message, which `in frames of N` can fragment.
    package var isWebSocketMessage: Bool {
        switch self {
        case .webSocket(.text), .webSocket(.binary): return true
        default: return false
        }
    }
}
