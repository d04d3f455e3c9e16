import ProbeFraming
import ProbeScript

/// An HTTP/2 expectation with its values resolved, and the frames it skipped so far: a frame
/// of a type and stream (with fields), a connection error, a stream error, a stream's end, or
/// the handshake's SETTINGS exchange.
struct HTTP2Rule: Sendable {
    enum Want: Sendable {
        case frame(FrameWant)
        case connectionError(codes: [Int])
        case streamError(stream: Int, codes: [Int])
        /// DATA or HEADERS with END_STREAM, or RST_STREAM NO_ERROR, on the stream (h2spec's
        /// "stream closed").
        case streamEnd(stream: Int)
        /// The peer's SETTINGS (acked) and the ACK of ours; other frames skipped as the client
        /// (as h2spec skips them), kept for the expects as the server (a client's request
        /// comes with its SETTINGS).
        case handshake(asServer: Bool)
    }

    /// What a frame must be: its type, stream and flags pick it (others are skipped), the
    /// other fields judge it, each only when the step names it.
    struct FrameWant: Sendable {
        var type: UInt8
        var stream: Int?
        var flags: UInt8
        var codes: [Int]
        var lastStream: Int?
        var status: Int?
        var headers: [(name: String, value: ExpectationMatcher.LineRule)]
        var payload: ExpectationMatcher.LineRule?
        /// The payload length the frame's header says.
        var length: Int?
        /// The connection's end passes too.
        var orClose: Bool
    }

    /// What judging one frame says.
    enum Verdict {
        case passed(String)
        case failed(String)
        case skipped
        /// Not this rule's: left for the expects after it.
        case kept
    }

    var want: Want
    /// `set http2 auto-ack` when the step began: the session answers by it from then on.
    let autoAck: Bool
    /// The frames passed over, as the log names them.
    private(set) var skipped: [String] = []
    /// The first GOAWAY (or RST_STREAM on the stream) that came with a code not asked for. A
    /// connection or stream error waits on past it, as h2spec's verifiers do: the close that
    /// may follow still passes.
    private(set) var offCode: String?
    private var sawSettings = false
    private var sawAck = false

    init(_ want: Want, autoAck: Bool) {
        self.want = want
        self.autoAck = autoAck
    }

    var waitingFor: String {
        switch want {
        case .frame(let frame): return Self.describe(frame) + (frame.orClose ? ", or the connection closed" : "")
        case .streamEnd(let stream): return "the end of stream \(stream): DATA or HEADERS with END_STREAM, or RST_STREAM NO_ERROR"
        case .connectionError(let codes): return "a connection error: GOAWAY " + Self.names(codes) + ", or the connection closed"
        case .streamError(let stream, let codes):
            return "a stream error on stream \(stream): RST_STREAM " + Self.names(codes) + ", or a connection error (GOAWAY " + Self.names(codes) + " or the connection closed)"
        case .handshake: return "the peer's SETTINGS and the ACK of ours"
        }
    }

    /// What the frames passed over were, for a log or a failure, a code not asked for first:
    /// "" when none.
    var skippedNote: String {
        (offCode.map { "; the peer sent \($0), a code not asked for" } ?? "") + Self.note(skipped)
    }

    /// "; skipped N frames: …", the middle of a long list elided; "" for none.
    private static func note(_ skipped: [String]) -> String {
        guard !skipped.isEmpty else { return "" }
        let shown = skipped.count > 6 ? skipped.prefix(3) + ["…"] + skipped.suffix(2) : skipped[...]
        return "; skipped \(skipped.count.counted("frame")): " + shown.joined(separator: ", ")
    }

    /// Judges the next frame: it passes, fails, or is passed over for the next one.
    mutating func judge(_ received: HTTP2ReceivedFrame, session: HTTP2Session) -> Verdict {
        let frame = received.frame
        switch want {
        case .frame(let want):
            // DATA on a stream the peer has ended (HEADERS with END_STREAM, or RST_STREAM) can never come.
            if want.type == 0x0, let stream = want.stream, frame.stream == stream, frame.type == 0x3 || (frame.type == 0x1 && frame.has(0x1)) {
                return .failed("expected \(Self.describe(want)), but the peer ended stream \(stream) first: \(received.description)" + skippedNote)
            }
            guard frame.type == want.type, want.stream.map({ $0 == frame.stream }) ?? true, frame.flags & want.flags == want.flags else {
                return skip(received)
            }
            if let why = Self.mismatch(received, want) { return .failed("expected \(Self.describe(want)), got \(received.description)" + ": " + why) }
            return .passed(received.description)
        case .connectionError(let codes):
            guard frame.type == 0x7 else { return skip(received) }
            return judgeCode(received, codes, "the peer chose GOAWAY: ")
        case .streamError(let stream, let codes):
            if frame.type == 0x3, frame.stream == stream { return judgeCode(received, codes, "the peer chose RST_STREAM: ") }
            guard frame.type == 0x7 else { return skip(received) }
            return judgeCode(received, codes, "the peer chose a connection error, GOAWAY: ")
        case .streamEnd(let stream):
            guard frame.stream == stream else { return skip(received) }
            if frame.type == 0x3 {
                return frame.errorCode == 0 ? .passed("the peer ended the stream: " + received.description)
                    : .failed("expected \(waitingFor), got \(received.description)")
            }
            return [0x0, 0x1].contains(frame.type) && frame.has(0x1) ? .passed("the peer ended the stream: " + received.description) : skip(received)
        case .handshake(let asServer):
            if frame.type == 0x4, frame.has(0x1) {
                sawAck = true
            } else if frame.type == 0x4 {
                // With auto-ack off the handshake still acks the peer's first SETTINGS.
                if received.answered == nil { session.send(HTTP2Frame(type: 0x4, flags: 0x1, stream: 0, payload: [])) }
                sawSettings = true
            } else {
                return asServer ? .kept : skip(received)
            }
            return sawSettings && sawAck ? .passed("SETTINGS exchanged") : .skipped
        }
    }

    /// How the stream's end, with no frame left, decides the rule.
    func judge(end: InboundEnd) -> MatchOutcome {
        var detail: MatchDetail
        switch want {
        case .connectionError, .streamError:
            guard end != .closedByProbe else { return .failed("expected \(waitingFor), but \(end)" + skippedNote) }
            if let offCode {
                detail = MatchDetail("the peer chose to close: \(end) after \(offCode), a code not asked for (the close passes, as in h2spec)" + Self.note(skipped))
            } else {
                detail = MatchDetail("the peer chose to close: \(end) with no GOAWAY before it" + skippedNote)
            }
        case .frame(let want) where want.orClose && end != .closedByProbe:
            detail = MatchDetail("the peer chose to close: \(end)" + skippedNote)
        case .frame, .streamEnd, .handshake:
            return .failed("expected \(waitingFor), but \(end)" + skippedNote)
        }
        detail.decidedByReset = end == .reset
        return .matched(captures: [:], detail: detail)
    }

    /// A GOAWAY or RST_STREAM that may end a connection or stream error: its code passes it,
    /// or it is kept as `offCode` and the wait goes on.
    private mutating func judgeCode(_ received: HTTP2ReceivedFrame, _ codes: [Int], _ form: String) -> Verdict {
        if received.frame.errorCode.map(codes.contains) == true { return .passed(form + received.description) }
        if offCode == nil { offCode = received.description } else { skipped.append(received.description) }
        return .skipped
    }

    private mutating func skip(_ received: HTTP2ReceivedFrame) -> Verdict {
        skipped.append(received.description)
        return .skipped
    }

    /// Why a frame of the wanted type and stream is not the one wanted; nil when it is.
    private static func mismatch(_ received: HTTP2ReceivedFrame, _ want: FrameWant) -> String? {
        let frame = received.frame
        if !want.codes.isEmpty, !(frame.errorCode.map(want.codes.contains) ?? false) {
            return "error code " + (frame.errorCode.map(HTTP2Names.errorName) ?? "missing")
        }
        if let length = want.length, frame.payload.count != length { return "length \(frame.payload.count)" }
        if let last = want.lastStream, frame.lastStream != last { return "last stream \(frame.lastStream.map(String.init) ?? "missing")" }
        if want.status != nil || !want.headers.isEmpty, let problem = received.blockProblem { return problem }
        if let status = want.status, received.field(":status") != String(status) {
            return ":status " + (received.field(":status") ?? "missing")
        }
        for (name, rule) in want.headers {
            guard let value = received.field(name) else { return "no \(name) field" }
            if !ExpectationMatcher.matches(rule, Array(value.utf8)) { return "\(name) is \(ByteEscaper.preview(Array(value.utf8)))" }
        }
        if let payload = want.payload, !ExpectationMatcher.matches(payload, Array(frame.opaqueData)) {
            return "its payload is " + ByteEscaper.preview(Array(frame.opaqueData.prefix(200)), total: frame.opaqueData.count)
        }
        return nil
    }

    private static func names(_ codes: [Int]) -> String {
        codes.map(HTTP2Names.errorName).joined(separator: " or ")
    }

    private static func describe(_ want: FrameWant) -> String {
        var text = HTTP2Names.typeName(want.type)
        if let stream = want.stream { text += " stream \(stream)" }
        if want.flags != 0 { text += " " + HTTP2Names.flagNames(want.flags, of: want.type) }
        if !want.codes.isEmpty { text += " " + names(want.codes) }
        if let last = want.lastStream { text += " last stream \(last)" }
        if let length = want.length { text += " length \(length)" }
        if let status = want.status { text += " :status \(status)" }
        for (name, _) in want.headers { text += " with \(name)" }
        return text
    }
}
