/// `send DATA [in chunks of N] [split at I,J | split sweep] [every D] [at RATE]`.
public struct SendStep: Sendable, Hashable {
    public enum Data: Sendable, Hashable {
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
    }

    public var data: Data
    /// `in frames of N`: a WebSocket message sent as fragments of N payload bytes.
    public var framesOf: Argument<Int>?
    public var chunkSize: Argument<Int>?
    public var splitOffsets: [Argument<Int>]
    public var splitSweep: Bool
    public var interval: Argument<Duration>?
    public var rate: Argument<Int>?
    /// `until closed [within D]`: the send ends, passing, when the peer closes; `within` bounds
    /// the wait from the step's start (the step timeout when nil).
    public var untilClosed: UntilClosed?

    public init(data: Data, chunkSize: Argument<Int>? = nil, splitOffsets: [Argument<Int>] = [], splitSweep: Bool = false,
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
    public var isWebSocketMessage: Bool {
        switch self {
        case .webSocket(.text), .webSocket(.binary): return true
        default: return false
        }
    }
}
