/// What `expect frame …`, `expect connection error …`, `expect stream error …` and `expect
/// stream end N` wait for on
/// an HTTP/2 connection (RFC 9113 §5.4, §6).
package enum HTTP2Expectation: Sendable, Hashable {
    /// A frame of that type (and stream), frames of other types before it skipped.
    case frame(HTTP2FrameMatch)
    /// A GOAWAY with one of the codes, or the connection closed (h2spec's connection error).
    case connectionError([Argument<Int>])
    /// A RST_STREAM on the stream with one of the codes, or a connection error.
    case streamError(Argument<Int>, [Argument<Int>])
    /// The peer's end of the stream: DATA or HEADERS with END_STREAM, or RST_STREAM NO_ERROR.
    case streamEnd(Argument<Int>)

    package var templates: [Template] {
        switch self {
        case .frame(let match): return match.templates
        case .connectionError(let codes): return codes.flatMap(\.templates)
        case .streamError(let stream, let codes): return stream.templates + codes.flatMap(\.templates)
        case .streamEnd(let stream): return stream.templates
        }
    }
}
