/// What an `expect` step waits for on a connection.
package indirect enum Expectation: Sendable, Hashable {
    case line(LineMatch)
    /// `expect message [head H] …`: the next message in the current framing, matched as a line
    /// is; with `head`, its head bytes (`set framing … after N`) must be these.
    case message(LineMatch, head: Template? = nil)
    /// `expect message [head H] bytes N`: the next message is exactly N bytes long.
    case messageOfLength(Argument<Int>, head: Template? = nil)
    case linesUnordered([Template])
    case exactBytes(Template)
    case byteCount(Argument<Int>, equals: Template?)
    case until(Template, max: Argument<Int>)
    /// `expect until /RE/ max SIZE`: up to and with the first match of the regex.
    case untilMatch(RegexLiteral, max: Argument<Int>)
    /// `expect eventually line … [max SIZE] [unless /RE/]`: lines skipped until one matches; nil
    /// max is 1 MiB; a skipped line that `unless` finds fails the step at once.
    case eventually(LineMatch, max: Argument<Int>?, unless: RegexLiteral?)
    case any
    case eof
    case reset
    case close
    case nothing(for: Argument<Duration>)
    /// `expect text|binary|ping|pong|close CODE` on a WebSocket connection.
    case webSocket(WebSocketExpectation)
    /// `expect frame …`, `expect connection error …`, `expect stream error …` on HTTP/2.
    case http2(HTTP2Expectation)
}

/// How one line is matched: exactly, by regex search, by substring, or any line.
package enum LineMatch: Sendable, Hashable {
    case exact(Template)
    case regex(RegexLiteral)
    case contains(Template)
    case any
}
