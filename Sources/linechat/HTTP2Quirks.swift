/// Deliberate breaches of RFC 9113 `linechat serve --http2` can be told to make, so that the
/// HTTP/2 suite (Scenarios/http2-server) can prove it catches each.
struct HTTP2Quirks: OptionSet, Sendable {
    let rawValue: Int

    /// Leaves a PING unanswered (§6.7: a PING without ACK must be answered).
    static let ignoresPings = HTTP2Quirks(rawValue: 1 << 0)
    /// Takes DATA on stream 0 without a word (§6.1: a connection error PROTOCOL_ERROR).
    static let acceptsDataOnStreamZero = HTTP2Quirks(rawValue: 1 << 1)
    /// Sends every error GOAWAY with INTERNAL_ERROR, whatever the error was (§7).
    static let wrongGoawayCode = HTTP2Quirks(rawValue: 1 << 2)
    /// Ends a connection error with a TCP reset and no GOAWAY (§5.4.1: it should send GOAWAY first).
    static let resetsWithoutGoaway = HTTP2Quirks(rawValue: 1 << 3)
    /// Takes WINDOW_UPDATEs that raise a window past 2^31-1 without a word (§6.9.1: a
    /// FLOW_CONTROL_ERROR).
    static let acceptsWindowOverflow = HTTP2Quirks(rawValue: 1 << 4)
    /// Takes a HEADERS on a stream whose request has ended without a word (§5.1: a stream or
    /// connection error STREAM_CLOSED).
    static let acceptsHeadersOnClosedStreams = HTTP2Quirks(rawValue: 1 << 5)
}
