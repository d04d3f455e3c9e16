import ProbeScript

/// A WebSocket expectation with its values resolved: what the next message or control frame
/// must be.
enum WebSocketRule {
    case text(ExpectationMatcher.LineRule)
    /// These bytes, or any binary message.
    case binary(BytePattern?)
    case binaryLength(Int)
    case ping(BytePattern?)
    case pong(BytePattern?)
    /// A close frame with one of `codes` (empty: any) and a reason the regex finds; with
    /// `orNone`, a close frame without a code, or the TCP connection's end without one, as well.
    case close(codes: [Int], orNone: Bool, reason: CompiledRegex?)
    /// `expect close` on a WebSocket connection: a close frame of any code (or none), or the
    /// TCP connection's end without one.
    case closeOrEnd

    /// The TCP connection's end without a close frame passes it.
    var takesEndWithoutFrame: Bool {
        switch self {
        case .closeOrEnd: return true
        case .close(_, let orNone, _): return orNone
        default: return false
        }
    }

    /// A ping the scenario waits for is not answered for it.
    var waitsForPing: Bool {
        if case .ping = self { return true }
        return false
    }

    var waitingFor: String {
        switch self {
        case .text(let line):
            if case .exact(let bytes) = line { return "a text message " + bytes.preview }
            return "a text message"
        case .binary(let bytes?): return "a binary message " + bytes.preview
        case .binary(nil): return "a binary message"
        case .binaryLength(let count): return "a binary message of \(count) bytes"
        case .ping(let bytes): return "a ping" + (bytes.map { " " + $0.preview } ?? "")
        case .pong(let bytes): return "a pong" + (bytes.map { " " + $0.preview } ?? "")
        case .close(let codes, let orNone, let reason):
            return "a close frame" + (codes.isEmpty ? "" : " with code " + codes.map(String.init).joined(separator: " or "))
                + (reason.map { " and a reason matching \($0.literal.description)" } ?? "") + (orNone ? ", or none (a close frame without a code, or TCP's end without a frame)" : "")
        case .closeOrEnd: return "a close frame, or the peer to close TCP"
        }
    }

    /// Whether `event` is what the rule waits for, and why not. A text message for a text rule
    /// is judged by the matcher, as a line is (its regex may search on a search thread).
    func judge(_ event: WebSocketEvent) -> MatchOutcome {
        let got = "got " + event.description
        switch (self, event) {
        case (.binary(let expected), .binary(let bytes)):
            guard let expected, !expected.matches(bytes) else { return .matched(captures: [:], detail: MatchDetail(event.description)) }
            return .failed(ByteDiff.render(expected: expected, received: bytes, expectedLabel: "expected binary", receivedLabel: "received binary"))
        case (.binaryLength(let count), .binary(let bytes)):
            return bytes.count == count ? .matched(captures: [:], detail: MatchDetail(event.description))
                : .failed("expected a binary message of \(count) bytes, \(got) (\(bytes.count) bytes)")
        case (.ping(let expected), .ping(let bytes)), (.pong(let expected), .pong(let bytes)):
            guard let expected, !expected.matches(bytes) else { return .matched(captures: [:], detail: MatchDetail(event.description)) }
            return .failed("expected \(waitingFor), \(got)")
        case (.close(let codes, let orNone, let reason), .close(let received, let text)):
            let codeTaken = codes.isEmpty || codes.contains { $0 == received } || (orNone && received == nil)
            if !codeTaken { return .failed("expected \(waitingFor), \(got)") }
            if let reason, (try? reason.regex.firstMatch(in: text)) == nil { return .failed("expected \(waitingFor), \(got)") }
            return .matched(captures: [:], detail: MatchDetail(event.description))
        case (.closeOrEnd, .close):
            return .matched(captures: [:], detail: MatchDetail(event.description))
        default:
            return .failed("expected \(waitingFor), \(got)")
        }
    }
}
