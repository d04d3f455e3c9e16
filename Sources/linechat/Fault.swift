import Transports

/// Bugs linechat can plant on purpose, one per classic framing or transport mistake, so the
/// conformance suite can prove it catches each (`linechat serve --fault NAME`; the bugs in
/// reading lines, `linechat connect --fault NAME` too).
enum Fault: String, CaseIterable, Sendable {
    case lfOnly = "lf-only"
    case splitReplies = "split-replies"
    case splitLongReplies = "split-long-replies"
    case linePerRead = "line-per-read"
    case noPartialBuffering = "no-partial-buffering"
    case noLengthLimit = "no-length-limit"
    case limitOffByOne = "limit-off-by-one"
    case limitOneLow = "limit-one-low"
    case refuseAtLineEnd = "refuse-at-line-end"
    case crlfAcrossReads = "crlf-across-reads"
    case phantomAtEOF = "phantom-at-eof"
    case rstInsteadOfFIN = "rst-instead-of-fin"
    case ignoreHalfClose = "ignore-half-close"
    case oneClientAtATime = "one-client-at-a-time"
    case lateReply = "late-reply"
    case heartbeatDropsAnswered = "heartbeat-drops-answered"
    case wsMaskedFrames = "ws-masked-frames"
    case wsBadFragments = "ws-bad-fragments"
    case wsNoCloseFrame = "ws-no-close-frame"
    case wsNoMaxMessage = "ws-no-max-message"
    case wsEchoInvalidUTF8 = "ws-echo-invalid-utf8"
    case wsEchoIgnoresRSV = "ws-echo-ignores-rsv"
    case wsEchoEmptyPong = "ws-echo-empty-pong"
    case wsEchoFragmentedControl = "ws-echo-fragmented-control"
    case wsEchoFragmentsOutOfOrder = "ws-echo-fragments-out-of-order"
    case wsEchoCode1005 = "ws-echo-code-1005"
    case h2PingUnanswered = "h2-ping-unanswered"
    case h2DataOnStreamZero = "h2-data-on-stream-0"
    case h2WrongGoawayCode = "h2-wrong-goaway-code"
    case h2ResetWithoutGoaway = "h2-rst-without-goaway"
    case h2WindowOverflow = "h2-window-overflow"
    case h2HeadersOnClosedStream = "h2-headers-on-closed-stream"

    /// A bug in how lines are read, which the client can plant as well as the server.
    var isInReading: Bool {
        switch self {
        case .linePerRead, .noPartialBuffering, .noLengthLimit, .limitOffByOne, .limitOneLow, .refuseAtLineEnd, .crlfAcrossReads, .phantomAtEOF:
            return true
        default: return false
        }
    }

    /// A bug the client can plant: one in reading lines, or bare LF endings.
    var isInClient: Bool { isInReading || self == .lfOnly }

    /// The WebSocket server's mistake this fault plants, for `serve --websocket` only (with
    /// `--echo` when `isInEcho`).
    var webSocketQuirk: WebSocketQuirks? {
        switch self {
        case .wsMaskedFrames: return .masksFrames
        case .wsBadFragments: return .badFragments
        case .wsNoCloseFrame: return .noCloseFrame
        case .wsNoMaxMessage: return .noMaxMessage
        case .wsEchoInvalidUTF8: return .acceptsInvalidUTF8
        case .wsEchoIgnoresRSV: return .ignoresReservedBits
        case .wsEchoEmptyPong: return .emptyPongs
        case .wsEchoFragmentedControl: return .ignoresFragmentedControl
        case .wsEchoFragmentsOutOfOrder: return .acceptsFragmentsOutOfOrder
        case .wsEchoCode1005: return .sendsCode1005
        default: return nil
        }
    }

    /// The HTTP/2 server's mistake this fault plants, for `serve --http2` only.
    var http2Quirk: HTTP2Quirks? {
        switch self {
        case .h2PingUnanswered: return .ignoresPings
        case .h2DataOnStreamZero: return .acceptsDataOnStreamZero
        case .h2WrongGoawayCode: return .wrongGoawayCode
        case .h2ResetWithoutGoaway: return .resetsWithoutGoaway
        case .h2WindowOverflow: return .acceptsWindowOverflow
        case .h2HeadersOnClosedStream: return .acceptsHeadersOnClosedStreams
        default: return nil
        }
    }

    /// A mistake of the WebSocket echo server (`serve --websocket --echo`), not the chat's.
    var isInEcho: Bool { rawValue.hasPrefix("ws-echo-") }

    /// The chat server's mistake this fault plants, for `serve` without `--websocket`; the
    /// reading bugs are planted in the unframer instead.
    var chatQuirks: ChatQuirks {
        switch self {
        case .lfOnly: return .lfOnly
        case .splitReplies: return .splitReplies
        case .splitLongReplies: return .splitsLongReplies
        case .lateReply: return .lateReply
        case .rstInsteadOfFIN: return .resetsInsteadOfClosing
        case .ignoreHalfClose: return .ignoresHalfClose
        case .oneClientAtATime: return .servesOneAtATime
        case .heartbeatDropsAnswered: return .dropsAnsweredHeartbeats
        default: return []
        }
    }

    /// Where it can be planted: `serve`, `serve,connect`, `serve --websocket`, `serve --websocket --echo` or `serve --http2`.
    var commands: String {
        http2Quirk != nil ? "serve --http2"
            : isInEcho ? "serve --websocket --echo" : webSocketQuirk != nil ? "serve --websocket" : isInClient ? "serve,connect" : "serve"
    }

    var summary: String {
        switch self {
        case .lfOnly: return "lines sent end in a bare LF instead of CR LF"
        case .splitReplies: return "each reply is written in two writes, 30 ms apart"
        case .splitLongReplies: return "a reply over 64 bytes (a long message, a long name's join) is written in two writes, 30 ms apart"
        case .linePerRead: return "each read is taken as exactly one line"
        case .noPartialBuffering: return "bytes after the last terminator of a read are dropped"
        case .noLengthLimit: return "lines of any length are buffered and accepted"
        case .limitOffByOne: return "a line of 1025 bytes is accepted: the limit is one byte too high"
        case .limitOneLow: return "a line of 1024 bytes is refused: the limit is one byte too low"
        case .refuseAtLineEnd: return "a line over 1024 bytes is buffered to its end and refused only then"
        case .crlfAcrossReads: return "CR LF is looked for in each read alone: one split between two reads is missed"
        case .phantomAtEOF: return "a half line left at EOF is handled as a message"
        case .rstInsteadOfFIN: return "'quit' ends the connection with RST instead of FIN"
        case .ignoreHalfClose: return "the client's half-close is ignored: the server never closes"
        case .oneClientAtATime: return "clients are served one at a time: the next is read once the one before has left"
        case .lateReply: return "'ping' is answered 250 ms late"
        case .heartbeatDropsAnswered: return "with --heartbeat: a client that answered a ping is dropped at the next as if it had not"
        case .wsMaskedFrames: return "the WebSocket server masks its frames"
        case .wsBadFragments: return "each reply goes in two fragments, the second opened as a new text frame, not a continuation"
        case .wsNoCloseFrame: return "the WebSocket server closes TCP without a close frame, and answers none"
        case .wsNoMaxMessage: return "the WebSocket server accepts messages of any size instead of closing with 1009"
        case .wsEchoInvalidUTF8: return "text that is not UTF-8 is echoed instead of closing with 1007"
        case .wsEchoIgnoresRSV: return "frames with reserved bits set are taken as if the bits were clear"
        case .wsEchoEmptyPong: return "a ping is answered with an empty pong, not one with the ping's payload"
        case .wsEchoFragmentedControl: return "a fragmented control frame is neither answered nor refused: the connection hangs"
        case .wsEchoFragmentsOutOfOrder: return "a continuation with nothing to continue starts a message; a new message inside a fragmented one continues it"
        case .wsEchoCode1005: return "a close frame without a code is answered with the code 1005, which must never be sent"
        case .h2PingUnanswered: return "a PING is left unanswered"
        case .h2DataOnStreamZero: return "DATA on stream 0 is taken without a word instead of a connection error PROTOCOL_ERROR"
        case .h2WrongGoawayCode: return "every error GOAWAY says INTERNAL_ERROR, whatever the error was"
        case .h2ResetWithoutGoaway: return "a connection error ends in a TCP reset, with no GOAWAY before it"
        case .h2WindowOverflow: return "WINDOW_UPDATEs that raise a window past 2^31-1 are taken without a word instead of a FLOW_CONTROL_ERROR"
        case .h2HeadersOnClosedStream: return "a HEADERS on a stream whose request has ended is taken without a word instead of STREAM_CLOSED"
        }
    }
}
