import NIOCore
import ProbeFraming
import ProbeScript

/// Decides an expectation against the bytes received so far and how the inbound side ended.
/// No sockets, no clock: only a long regex search runs on a search thread, and the waker
/// `evaluate` is given says when it is done. Line expects take their lines from the
/// connection's framing; byte expects read the stream. It consumes what it matched (or the
/// line it rejected) from the buffer, and says how much buffer it may need so reading never
/// stalls below that.
struct ExpectationMatcher: Sendable {
    /// How many bytes of lines `expect eventually` skips at most when the step names no `max`.
    static let eventuallyMax = 1 << 20
    /// Why a message's head cannot be written or expected under line framing.
    /// A line check with its values resolved (variables filled in, regex compiled).
    enum LineRule {
        case exact(BytePattern)
        case regex(CompiledRegex)
        case contains([UInt8])
        case any
        /// A message of exactly this many bytes (`expect message bytes N`).
        case length(Int)

        /// The one line this rule takes, when it is plain bytes (no wildcard).
        var plainBytes: [UInt8]? {
            guard case .exact(let pattern) = self, pattern.anyByteAt.isEmpty else { return nil }
            return pattern.bytes
        }
    }

    enum Rule {
        /// The next line or message; with `head`, a message whose head bytes (`set framing …
        /// after N`) these are.
        case line(LineRule, head: BytePattern? = nil)
        case linesUnordered(remaining: [[UInt8]])
        case exactBytes(BytePattern)
        case byteCount(Int, equals: BytePattern?)
        case until([UInt8], max: Int)
        /// Up to and with the first match of a regex within `max` bytes, read one byte to a character.
        case untilMatch(CompiledRegex, max: Int)
        /// Lines skipped until one passes, failing once over `max` bytes were skipped, or at once
        /// when a skipped line is one `unless` finds.
        indirect case eventually(LineRule, max: Int, unless: CompiledRegex?, skipped: SkippedLines)
        case any
        case eof
        case reset
        case close
        case nothing
        /// The next WebSocket message or control frame, read by the connection's session.
        indirect case webSocket(WebSocketRule, WebSocketSession)
        /// The next HTTP/2 frames, cut by the connection's session, until one decides.
        indirect case http2(HTTP2Rule, NIOLoopBound<HTTP2Session>)
        /// An HTTP head: bytes up to a blank line, at most `max`, captured as `head`.
        case head(max: Int)
    }

    var rule: Rule
    /// How the stream is cut into the lines that line expects read.
    private var framing: any Framing
    /// Where `expect until` has looked for its delimiter.
    private var search = ByteSearch()
    /// The search of `expect until /RE/`'s window, or of a long line or text message held.
    private var regexSearch: RegexSearch?
    private var matchedLines: [String] = []

    init(_ rule: consuming Rule, framing: any Framing) {
        self.rule = rule
        self.framing = framing
    }

    /// For `expect nothing for D`, reaching the timeout is success.
    var timeoutMeansSuccess: Bool {
        if case .nothing = rule { return true }
        return false
    }

    /// How many unconsumed bytes the matcher may need to see before it can decide.
    var bufferNeeded: Int {
        switch rule {
        case .line, .linesUnordered, .eventually: return framing.bufferNeeded
        case .untilMatch(_, let max): return max
        case .exactBytes(let bytes): return bytes.count
        case .byteCount(let count, _): return count
        case .until(let delimiter, let max): return max + delimiter.count
        case .any, .eof, .reset, .close, .nothing: return 1
        case .webSocket(_, let session): return session.bufferNeeded
        case .http2(_, let session): return session.value.maxPayload + HTTP2Frame.headerSize
        case .head(let max): return max
        }
    }

    /// What the step waits for, as the timeout message says it.
    var waitingFor: String {
        switch rule {
        case .line(let line, let head):
            return Self.describe(line, unit: framing.unit) + (head.map { " with head \($0.preview)" } ?? "") + stillSearching
        case .eventually(let line, let max, _, let skipped):
            return "\(Self.describe(line, unit: framing.unit)), skipping other lines (\(skipped.summary) so far, max \(max) bytes)" + stillSearching
        case .untilMatch(let regex, let max): return "bytes up to a match of \(regex.literal.description) (max \(max))" + stillSearching
        case .linesUnordered(let remaining):
            return "\(remaining.count) more line(s), in any order: " + remaining.map { ByteEscaper.preview($0) }.joined(separator: ", ")
        case .exactBytes(let bytes): return "bytes " + bytes.preview
        case .byteCount(let count, _): return count.counted("byte")
        case .until(let delimiter, let max): return "bytes up to \(ByteEscaper.preview(delimiter)) (max \(max))"
        case .any: return "any bytes"
        case .eof: return "the peer's FIN (eof)"
        case .reset: return "the peer's RST (reset)"
        case .close: return "the peer to close (FIN or RST)"
        case .nothing: return "silence"
        case .webSocket(let rule, _): return rule.waitingFor
        case .http2(let rule, _): return rule.waitingFor + rule.skippedNote
        case .head: return "an HTTP head (up to a blank line)"
        }
    }

    /// What a timeout adds while a search runs: "; the regex was still searching …", or "".
    var stillSearching: String {
        guard let bytes = regexSearch?.searching else { return "" }
        return "; the regex was still searching " + (regexSearch?.heldLine.map { "a \($0.unit) of \(bytes) bytes" } ?? "the first \(bytes) bytes")
            + " (a regex that backtracks can take minutes over a long text)"
    }

    /// How a line rule reads in messages: `line "a"`, `a line matching /re/` (or `message "a"`…).
    private static func describe(_ line: LineRule, unit: String) -> String {
        switch line {
        case .exact(let bytes): return "\(unit) " + bytes.preview
        case .regex(let regex): return "a \(unit) matching \(regex.literal.description)"
        case .contains(let bytes): return "a \(unit) containing " + ByteEscaper.preview(bytes)
        case .any: return "a \(unit)"
        case .length(let count): return "a \(unit) of \(count) bytes"
        }
    }

    /// Why a line never came, when what arrived is framed otherwise than the framing says;
    /// nil for other rules, and when nothing says so.
    func misframing(_ pending: [UInt8]) -> String? {
        switch rule {
        case .line, .linesUnordered, .eventually: return framing.misframing(pending)
        default: return nil
        }
    }

    /// Decides if it can: nil means "wait for more". `waker` gives what a regex search started
    /// here calls from its search thread once done, to evaluate again and take its result; it
    /// is asked only as a search starts (a queue makes its waker then: a weak reference to the
    /// queue would make each of its retains a slow one, a round trip's many).
    mutating func evaluate(_ buffer: inout ByteBuffer, end: InboundEnd?, waker: () -> @Sendable () -> Void = { {} }) -> MatchOutcome? {
        // A line or message has nothing to cut from no bytes before the end: how an expect
        // usually starts, its reply not yet come.
        if buffer.readableBytes == 0, end == nil, regexSearch == nil, case .line = rule { return nil }
        switch rule {
        case .line(let line, let head): return expectLine(line, head: head, in: &buffer, end: end, waker: waker)
        case .linesUnordered(let remaining): return expectLinesUnordered(remaining, in: &buffer, end: end)
        case .eventually(let line, let max, let unless, let skipped):
            return expectEventually(line, max: max, unless: unless, skipped: skipped, in: &buffer, end: end, waker: waker)
        case .untilMatch(let regex, let max): return expectMatch(regex, max: max, in: &buffer, end: end, waker: waker)
        case .exactBytes(let expected): return expectPrefix(expected, in: &buffer, end: end, label: "bytes")
        case .byteCount(let count, let equals):
            if let equals { return expectPrefix(equals, in: &buffer, end: end, label: "bytes") }
            return expectCount(count, in: &buffer, end: end)
        case .until(let delimiter, let max): return expectDelimiter(delimiter, max: max, in: &buffer, end: end)
        case .any: return expectAny(in: &buffer, end: end)
        case .eof, .reset, .close: return expectEnd(buffer, end: end)
        case .webSocket(let rule, let session): return expectWebSocket(rule, session, in: &buffer, end: end, waker: waker)
        case .http2(let rule, let session): return expectHTTP2(rule, session, in: &buffer, end: end)
        case .head(let max): return expectHead(max: max, in: &buffer, end: end)
        case .nothing: return expectNothing(buffer, end: end)
        }
    }

    /// The next line or message, judged by `line`, with its head when the framing has one.
    private mutating func expectLine(_ line: LineRule, head: BytePattern?, in buffer: inout ByteBuffer, end: InboundEnd?,
                                     waker: () -> @Sendable () -> Void) -> MatchOutcome? {
        if let held = regexSearch?.heldLine { return judge(line, held.bytes, size: held.size, unit: held.unit, waker: waker) }
        guard let next = nextLine(&buffer, end: end, sharing: line.plainBytes) else { return nil }
        switch next {
        case .failure(let message): return .failed(message)
        case .message(let received):
            let header = framing.lastHeader
            if let head, !head.matches(header?.head ?? []) {
                return .failed("expected \(waitingFor), received a \(framing.unit) with head hex\"\(ByteEscaper.hex(header?.head ?? []))\": "
                               + ByteEscaper.preview(received))
            }
            let outcome = judge(line, received, size: 0, unit: framing.unit, waker: waker)
            guard let header else { return outcome }
            switch outcome {
            case .matched(let captures, let detail)?: return .matched(captures: captures, detail: detail.framed(by: header, payload: received))
            case .failed(let message)? where MatchDetail.showsApart(received, header):
                return .failed(message + "\n(received: \(header.describe(payload: received)))")
            default: return outcome
            }
        }
    }

    /// Lines in any order: each must be one of those still expected.
    private mutating func expectLinesUnordered(_ remaining: [[UInt8]], in buffer: inout ByteBuffer, end: InboundEnd?) -> MatchOutcome? {
        var remaining = remaining
        while !remaining.isEmpty {
            guard let next = nextLine(&buffer, end: end) else {
                rule = .linesUnordered(remaining: remaining)
                return nil
            }
            guard case .message(let received) = next else {
                if case .failure(let message) = next { return .failed(message) }
                return nil
            }
            guard let index = remaining.firstIndex(of: received) else {
                return .failed("received line \(ByteEscaper.preview(received)), which is none of the lines still expected: "
                               + remaining.map { ByteEscaper.preview($0) }.joined(separator: ", "))
            }
            remaining.remove(at: index)
            matchedLines.append(ByteEscaper.preview(received))
        }
        return .matched(captures: [:], detail: MatchDetail("lines " + matchedLines.joined(separator: ", ")))
    }

    /// Lines skipped until one passes `line`, within `max` bytes; a skipped line that matches
    /// `unless` fails it.
    private mutating func expectEventually(_ line: LineRule, max: Int, unless: CompiledRegex?, skipped: SkippedLines,
                                           in buffer: inout ByteBuffer, end: InboundEnd?, waker: () -> @Sendable () -> Void) -> MatchOutcome? {
        var skipped = skipped
        defer { rule = .eventually(line, max: max, unless: unless, skipped: skipped) }
        while true {
            let (received, size): ([UInt8], Int)
            if let held = regexSearch?.heldLine {
                (received, size) = (held.bytes, held.size)
            } else {
                let before = buffer.readableBytes
                guard let next = nextLine(&buffer, end: end) else { return nil }
                guard case .message(let message) = next else {
                    if case .failure(let message) = next { return .failed(message + " (after skipping \(skipped.summary))") }
                    return nil
                }
                (received, size) = (message, before - buffer.readableBytes)
            }
            guard let outcome = judge(line, received, size: size, unit: "line", waker: waker) else { return nil }
            if case .matched(let captures, let detail) = outcome {
                return .matched(captures: captures, detail: detail.adding(" after skipping \(skipped.summary)"))
            }
            if let unless, RegexSearch.firstMatch(unless, inLine: received) != nil {
                return .failed("a line matched unless \(unless.literal.description) while \(Self.describe(line, unit: framing.unit)) was awaited: "
                               + "\(ByteEscaper.preview(received))" + (skipped.lines > 0 ? " (after skipping \(skipped.summary))" : ""))
            }
            skipped.add(received, size: size)
            if skipped.bytes > max {
                return .failed("skipped \(skipped.lines) lines (\(skipped.bytes) bytes, over max \(max)) and none was \(Self.describe(line, unit: framing.unit)); "
                               + "the last: \(ByteEscaper.preview(received)); skipped\(skipped.shown)")
            }
        }
    }

    /// `count` bytes, whatever they are.
    private func expectCount(_ count: Int, in buffer: inout ByteBuffer, end: InboundEnd?) -> MatchOutcome? {
        if buffer.readableBytes >= count {
            buffer.moveReaderIndex(forwardBy: count)
            return .matched(captures: [:], detail: "\(count.counted("byte"))")
        }
        return end.map { .failed("\($0) after \(buffer.readableBytes) of \(count) expected bytes: \(ByteEscaper.preview(buffer.readableBytesView))") }
    }

    /// The bytes up to and with `delimiter`, found within `max` bytes.
    private mutating func expectDelimiter(_ delimiter: [UInt8], max: Int, in buffer: inout ByteBuffer, end: InboundEnd?) -> MatchOutcome? {
        if let index = search.find(delimiter, in: buffer, limit: max + delimiter.count) {
            let bytes = buffer.readBytes(length: index + delimiter.count)!
            return .matched(captures: [:], detail: MatchDetail("\(bytes.count) bytes up to the delimiter:", showing: bytes))
        }
        if buffer.readableBytes >= max + delimiter.count {
            return .failed("no \(ByteEscaper.preview(delimiter)) within max \(max) bytes; received \(ByteEscaper.preview(buffer.readableBytesView))")
        }
        return end.map { .failed("\($0) before \(ByteEscaper.preview(delimiter)); received \(ByteEscaper.preview(buffer.readableBytesView))") }
    }

    /// Whatever bytes have come, at least one.
    private func expectAny(in buffer: inout ByteBuffer, end: InboundEnd?) -> MatchOutcome? {
        if buffer.readableBytes > 0 {
            let bytes = buffer.readBytes(length: buffer.readableBytes)!
            return .matched(captures: [:], detail: MatchDetail("\(bytes.count) bytes:", showing: bytes))
        }
        return end.map { .failed("expected any bytes, but \($0)") }
    }

    /// The next WebSocket message or control frame, judged by `rule`; pings are answered on
    /// the way unless the rule waits for one.
    private mutating func expectWebSocket(_ rule: WebSocketRule, _ session: WebSocketSession, in buffer: inout ByteBuffer,
                                          end: InboundEnd?, waker: () -> @Sendable () -> Void) -> MatchOutcome? {
        if case .text(let line) = rule, let held = regexSearch?.heldLine { return judge(line, held.bytes, size: 0, unit: held.unit, waker: waker) }
        while true {
            guard let next = session.next(from: &buffer, end: end) else { return nil }
            switch next {
            case .failure(let violation):
                if rule.takesEndWithoutFrame, let end = violation.end, end != .closedByProbe {
                    return .matched(captures: [:], detail: MatchDetail("no close frame: \(end)"))
                }
                return .failed(violation.message)
            case .success(let event):
                if case .ping(let payload) = event, !rule.waitsForPing, session.autoPong {
                    if let flooded = session.answer(ping: payload) { return .failed(flooded.message) }
                    continue
                }
                if case .text(let line) = rule, case .text(let bytes) = event { return judge(line, bytes, size: 0, unit: "text message", waker: waker) }
                let outcome = rule.judge(event)
                if case .close(let code, _) = event {
                    // A close frame that fails an expect stays for the next step (an `expect
                    // close` after a `non-strict` block): it ends the messages, it is not one.
                    if case .matched = outcome { session.closeHandshakeDone(peerCode: code) } else { session.keep(event) }
                }
                return outcome
            }
        }
    }

    /// The HTTP/2 frames the session has cut, judged in order until one decides; frames the
    /// rule passes over are named with the outcome.
    private mutating func expectHTTP2(_ rule: HTTP2Rule, _ bound: NIOLoopBound<HTTP2Session>, in buffer: inout ByteBuffer,
                                      end: InboundEnd?) -> MatchOutcome? {
        let session = bound.value
        var rule = rule
        defer { self.rule = .http2(rule, bound) }
        session.autoAck = rule.autoAck
        session.take(from: &buffer)
        var kept: [HTTP2ReceivedFrame] = []
        defer { session.keep(kept) }
        while let received = session.next() {
            switch rule.judge(received, session: session) {
            case .passed(let detail):
                // A frame taken on whichever stream it came names that stream: `{http2.stream}`.
                let anyStream = if case .frame(let want) = rule.want { want.stream == nil && received.frame.stream != 0 } else { false }
                let captures = anyStream ? ["http2.stream": Array(String(received.frame.stream).utf8)] : [:]
                return .matched(captures: captures, detail: MatchDetail(detail + rule.skippedNote))
            case .failed(let why): return .failed(why + rule.skippedNote)
            case .skipped: continue
            case .kept: kept.append(received)
            }
        }
        if let violation = session.violation { return .failed("expected \(rule.waitingFor), got " + violation + rule.skippedNote) }
        guard let end else { return nil }
        if buffer.readableBytes > 0 {
            return .failed("expected \(rule.waitingFor), but \(end) in the middle of a frame: " + ByteEscaper.preview(buffer.readableBytesView.prefix(80)) + rule.skippedNote)
        }
        return rule.judge(end: end)
    }

    /// An HTTP head: the bytes up to a blank line, within `max`.
    private mutating func expectHead(max: Int, in buffer: inout ByteBuffer, end: InboundEnd?) -> MatchOutcome? {
        if let index = search.find([13, 10, 13, 10], in: buffer, limit: max) {
            let head = buffer.readBytes(length: index + 4)!
            return .matched(captures: ["head": head], detail: "an HTTP head of \(head.count) bytes")
        }
        if buffer.readableBytes >= max { return .failed("no blank line ending an HTTP head within \(max) bytes: \(ByteEscaper.preview(buffer.readableBytesView.prefix(64)))") }
        guard let end else { return nil }
        return .failed("\(end) before the end of an HTTP head" + (buffer.readableBytes > 0 ? ": received \(ByteEscaper.preview(buffer.readableBytesView))" : ""))
    }

    /// Silence: no byte and no end until the timeout, which then means success.
    private func expectNothing(_ buffer: ByteBuffer, end: InboundEnd?) -> MatchOutcome? {
        if buffer.readableBytes > 0 {
            return .failed("expected silence, received \(ByteEscaper.preview(buffer.readableBytesView))")
        }
        return end.map { .failed("expected silence, but \($0)") }
    }

    private func expectEnd(_ buffer: ByteBuffer, end: InboundEnd?) -> MatchOutcome? {
        if buffer.readableBytes > 0, end != .reset {
            return .failed("expected \(waitingFor), received \(ByteEscaper.preview(buffer.readableBytesView))")
        }
        guard let end else { return nil }
        switch (rule, end) {
        case (.eof, .eof), (.close, .eof): return .matched(captures: [:], detail: "FIN")
        case (.reset, .reset), (.close, .reset): return .matched(captures: [:], detail: "RST")
        case (.close, .truncated): return .matched(captures: [:], detail: "FIN without close_notify")
        default: return .failed("expected \(waitingFor), but \(end)")
        }
    }

    /// Takes the bytes up to and with the first match of `regex` in the first `max` bytes.
    /// Bytes are matched one to a character (U+0000-U+00FF) and by Unicode scalar, so `\r\n`
    /// matches CR LF and offsets are byte offsets; captured groups are read back as UTF-8.
    /// It fails only once a search covered every byte it may look at.
    private mutating func expectMatch(_ compiled: CompiledRegex, max: Int, in buffer: inout ByteBuffer, end: InboundEnd?,
                                      waker: () -> @Sendable () -> Void) -> MatchOutcome? {
        let literal = compiled.literal
        let search = regexSearch ?? RegexSearch(compiled, finished: waker())
        regexSearch = search
        guard let result = search.resultForWindow(of: buffer, limit: max) else { return nil }
        if let found = result.found {
            let bytes = buffer.readBytes(length: found.length)!
            return .matched(captures: found.captures, detail: MatchDetail("\(bytes.count) bytes up to a match of \(literal.description):", showing: bytes))
        }
        guard result.bytes == min(buffer.readableBytes, max) else { return nil }
        if buffer.readableBytes >= max {
            return .failed("no match of \(literal.description) within max \(max) bytes; received \(ByteEscaper.preview(buffer.readableBytesView))")
        }
        return end.map { .failed("\($0) before a match of \(literal.description); received \(ByteEscaper.preview(buffer.readableBytesView))") }
    }

    /// Judges a line that came from elsewhere than the stream (a subject's output) by this
    /// `.line` rule: nil while a regex searches it on a search thread; ask again with the same
    /// line.
    mutating func judge(line received: [UInt8]) -> MatchOutcome? {
        guard case .line(let line, _) = rule else { preconditionFailure("judge(line:) needs a .line rule") }
        return judge(line, received, size: received.count, unit: "line", waker: { {} })
    }

    /// Judges one line or text message by `line`. A regex over one longer than
    /// `RegexSearch.inlineLimit` runs on a search thread: nil until it is done, the line held
    /// meanwhile.
    private mutating func judge(_ line: LineRule, _ received: [UInt8], size: Int, unit: String, waker: () -> @Sendable () -> Void) -> MatchOutcome? {
        guard case .regex(let compiled) = line, received.count > RegexSearch.inlineLimit else { return Self.check(line, received, unit: unit) }
        let search = regexSearch ?? RegexSearch(compiled, line: received, size: size, unit: unit, finished: waker())
        guard let result = search.resultForLine() else {
            regexSearch = search
            return nil
        }
        regexSearch = nil
        return Self.verdict(compiled, received, result.found, unit: unit)
    }

    /// Compares the buffer with `expected` as soon as any byte differs, not only once all arrived.
    private func expectPrefix(_ expected: BytePattern, in buffer: inout ByteBuffer, end: InboundEnd?, label: String) -> MatchOutcome? {
        let available = Array(buffer.readableBytesView.prefix(expected.count))
        guard let index = expected.firstDifference(available) else {
            buffer.moveReaderIndex(forwardBy: expected.count)
            return .matched(captures: [:], detail: MatchDetail(label, showing: available))
        }
        if index < available.count {
            return .failed(ByteDiff.render(expected: expected, received: available))
        }
        guard let end else { return nil }
        return .failed("\(end) before all expected bytes arrived\n" + ByteDiff.render(expected: expected, received: available))
    }

    /// The next line from the framing; when the stream ended between lines, why none comes.
    /// A line that is the bytes `expected` comes as that array, not a copy.
    private mutating func nextLine(_ buffer: inout ByteBuffer, end: InboundEnd?, sharing expected: [UInt8]? = nil) -> FramedMessage? {
        if let next = framing.nextMessage(from: &buffer, end: end, sharing: expected) { return next }
        return end.map { .failure("expected \(waitingFor), but \($0)") }
    }

    /// Whether one line passes `line`, without saying why: what wire checks of every line ask.
    static func matches(_ line: LineRule, _ received: [UInt8]) -> Bool {
        switch line {
        case .any: return true
        case .exact(let expected): return expected.matches(received)
        case .contains(let needle): return needle.isEmpty || received.indices.contains { received[$0...].starts(with: needle) }
        case .length(let count): return received.count == count
        case .regex(let compiled):
            let (text, readsBytes) = RegexSearch.text(of: received)
            return (try? (readsBytes ? compiled.scalarRegex : compiled.regex).firstMatch(in: text)) != nil
        }
    }

    /// Whether one line passes `line`, and what it captured or why not; also how a subject's
    /// output lines are judged.
    static func check(_ line: LineRule, _ received: [UInt8], unit: String = "line") -> MatchOutcome {
        let shown = MatchDetail(unit, showing: received)
        switch line {
        case .any:
            return .matched(captures: [:], detail: shown)
        case .exact(let expected):
            if matches(line, received) { return .matched(captures: [:], detail: shown) }
            return .failed(ByteDiff.render(expected: expected, received: received, expectedLabel: "expected \(unit)", receivedLabel: "received \(unit)"))
        case .contains(let needle):
            if matches(line, received) { return .matched(captures: [:], detail: shown) }
            return .failed("expected a \(unit) containing \(ByteEscaper.preview(needle))\n received \(unit): \(ByteEscaper.preview(received))")
        case .length(let count):
            if matches(line, received) { return .matched(captures: [:], detail: shown) }
            return .failed("expected a \(unit) of \(count) bytes, received one of \(received.count): \(ByteEscaper.preview(received))")
        case .regex(let compiled):
            return verdict(compiled, received, RegexSearch.firstMatch(compiled, inLine: received), unit: unit)
        }
    }

    /// What a regex line rule says of `received`, given the regex's first match in it.
    private static func verdict(_ compiled: CompiledRegex, _ received: [UInt8], _ found: RegexSearch.Found?, unit: String) -> MatchOutcome {
        guard let found else {
            return .failed("expected a \(unit) matching \(compiled.literal.description)\n received \(unit): \(ByteEscaper.preview(received))")
        }
        return .matched(captures: found.captures, detail: MatchDetail(unit, showing: received))
    }
}
