/// `send DATA [in chunks of N] [split at I,J | split sweep] [every D] [at RATE]`. Immutable and
/// held by reference: the runner takes it from its statement on every send, one retain.
package final class SendStep: Sendable, Hashable {
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
        /// One WebSocket frame (`send text "x"`, `send ping`, …). Boxed, as is `http2`: the
        /// large forms would make every send copy their size as it reads its data.
        indirect case webSocket(WebSocketSend)
        /// `send preface` or one HTTP/2 frame (`send frame settings ack`, …).
        indirect case http2(HTTP2Send)
    }

    package let data: Data
    /// `in frames of N`: a WebSocket message sent as fragments of N payload bytes.
    package let framesOf: Argument<Int>?
    package let chunkSize: Argument<Int>?
    package let splitOffsets: [Argument<Int>]
    package let splitSweep: Bool
    package let interval: Argument<Duration>?
    package let rate: Argument<Int>?
    /// `until closed [within D]`: the send ends, passing, when the peer closes; `within` bounds
    /// the wait from the step's start (the step timeout when nil).
    package let untilClosed: UntilClosed?
    /// True when no modifier shapes the send (no frames, chunks, splits, pause, rate or `until
    /// closed`): worked out once, for a send in a loop is planned every round trip.
    package let isPlain: Bool

    package init(data: Data, framesOf: Argument<Int>? = nil, chunkSize: Argument<Int>? = nil, splitOffsets: [Argument<Int>] = [],
                 splitSweep: Bool = false, interval: Argument<Duration>? = nil, rate: Argument<Int>? = nil, untilClosed: UntilClosed? = nil) {
        self.data = data
        self.framesOf = framesOf
        self.chunkSize = chunkSize
        self.splitOffsets = splitOffsets
        self.splitSweep = splitSweep
        self.interval = interval
        self.rate = rate
        self.untilClosed = untilClosed
        self.isPlain = framesOf == nil && chunkSize == nil && splitOffsets.isEmpty && !splitSweep && interval == nil && rate == nil && untilClosed == nil
    }

    /// Two steps are equal when they send the same way.
    package static func == (lhs: SendStep, rhs: SendStep) -> Bool {
        lhs === rhs || (lhs.data == rhs.data && lhs.framesOf == rhs.framesOf && lhs.chunkSize == rhs.chunkSize && lhs.splitOffsets == rhs.splitOffsets
            && lhs.splitSweep == rhs.splitSweep && lhs.interval == rhs.interval && lhs.rate == rhs.rate && lhs.untilClosed == rhs.untilClosed)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(data)
        hasher.combine(framesOf)
        hasher.combine(chunkSize)
        hasher.combine(splitOffsets)
        hasher.combine(splitSweep)
        hasher.combine(interval)
        hasher.combine(rate)
        hasher.combine(untilClosed)
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
