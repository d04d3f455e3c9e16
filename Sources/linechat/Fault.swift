/// Bugs linechat can plant on purpose, one per classic framing or transport mistake, so the
/// conformance suite can prove it catches each (`linechat serve --fault NAME`; the bugs in
/// reading lines, `linechat connect --fault NAME` too).
enum Fault: String, CaseIterable, Sendable {
    case lfOnly = "lf-only"
    case splitReplies = "split-replies"
    case linePerRead = "line-per-read"
    case noPartialBuffering = "no-partial-buffering"
    case noLengthLimit = "no-length-limit"
    case phantomAtEOF = "phantom-at-eof"
    case rstInsteadOfFIN = "rst-instead-of-fin"
    case ignoreHalfClose = "ignore-half-close"
    case lateReply = "late-reply"

    /// A bug in how lines are read, which the client can plant as well as the server.
    var isInReading: Bool {
        switch self {
        case .linePerRead, .noPartialBuffering, .noLengthLimit, .phantomAtEOF: return true
        default: return false
        }
    }

    /// Where it can be planted: `serve`, or `serve,connect`.
    var commands: String { isInReading ? "serve,connect" : "serve" }

    var summary: String {
        switch self {
        case .lfOnly: return "replies end in a bare LF instead of CR LF"
        case .splitReplies: return "each reply is written in two writes, 30 ms apart"
        case .linePerRead: return "each read is taken as exactly one line"
        case .noPartialBuffering: return "bytes after the last terminator of a read are dropped"
        case .noLengthLimit: return "lines of any length are buffered and accepted"
        case .phantomAtEOF: return "a half line left at EOF is handled as a message"
        case .rstInsteadOfFIN: return "'quit' ends the connection with RST instead of FIN"
        case .ignoreHalfClose: return "the client's half-close is ignored: the server never closes"
        case .lateReply: return "'ping' is answered 500 ms late"
        }
    }
}
