import NIOConcurrencyHelpers
import NIOCore
import ProbeFraming
@testable import ProbeRunner
import ProbeScript
import Testing
import TestSupport

/// The matcher on its own: bytes in, a verdict and what it consumed out, no sockets.
@Suite struct ExpectationMatcherTests {
    /// Feeds `input` to a matcher for `rule` and returns its verdict and the bytes it left unread.
    private func decide(_ rule: ExpectationMatcher.Rule, _ input: String, end: InboundEnd? = nil,
                        terminator: [UInt8] = [13, 10], maxLine: Int = 64) -> (outcome: MatchOutcome?, left: String) {
        var matcher = ExpectationMatcher(rule, framing: TerminatedLineFraming(terminator: terminator, maxLine: maxLine))
        var buffer = ByteBuffer(string: input)
        let outcome = matcher.evaluate(&buffer, end: end)
        return (outcome, String(buffer: buffer))
    }

    private func matched(_ outcome: MatchOutcome?) -> Bool {
        if case .matched = outcome { return true }
        return false
    }

    private func failure(_ outcome: MatchOutcome?) -> String? {
        if case .failed(let message) = outcome { return message }
        return nil
    }

    @Test func anExactLineMatchesTheWholeLineOnly() throws {
        let hello = ExpectationMatcher.Rule.line(.exact(BytePattern(Array("hello".utf8))))
        let same = decide(hello, "hello\r\nnext")
        #expect(matched(same.outcome))
        #expect(same.left == "next", "the line and its terminator are consumed, nothing more")
        // A longer line that starts with the expected one, and a shorter one that it starts with.
        let longer = try #require(failure(decide(hello, "hello world\r\n").outcome), "a prefix match passed")
        #expect(longer.contains(#"received line: "hello world""#), "\(longer)")
        #expect(failure(decide(hello, "hell\r\n").outcome) != nil)
        #expect(failure(decide(hello, "Hello\r\n").outcome) != nil)
    }

    @Test func aLineWaitsForItsTerminatorThenJudgesHowTheStreamEnded() {
        let any = ExpectationMatcher.Rule.line(.any)
        #expect(decide(any, "hello\r").outcome == nil, "half a terminator is not a line yet")
        #expect(failure(decide(any, "hello", end: .eof).outcome)?.contains("in the middle of a line") == true)
        #expect(failure(decide(any, "", end: .reset).outcome)?.contains("RST") == true)
        let long = decide(any, String(repeating: "x", count: 70))
        #expect(failure(long.outcome)?.contains("within max-line 64 bytes") == true, "\(String(describing: long.outcome))")
        // The limit's edge: a line of max-line bytes passes; past it, a missing terminator fails as soon as it cannot come in time.
        #expect(matched(decide(any, String(repeating: "x", count: 64) + "\r\n").outcome))
        #expect(decide(any, String(repeating: "x", count: 65)).outcome == nil, "64 bytes and a CR may still be a line")
        #expect(failure(decide(any, String(repeating: "x", count: 66)).outcome)?.contains("within max-line 64 bytes") == true)
    }

    @Test func containsAndRegexRulesSearchTheLine() throws {
        #expect(matched(decide(.line(.contains(Array("cat".utf8))), "the cat sat\r\n").outcome))
        #expect(failure(decide(.line(.contains(Array("dog".utf8))), "the cat sat\r\n").outcome) != nil)
        let rule = ExpectationMatcher.Rule.line(.regex(try regex(#"^(?<who>\w+): (?<text>.*)$"#)))
        let outcome = decide(rule, "Luke: hi there\r\n").outcome
        #expect(outcome == .matched(captures: utf8(["who": "Luke", "text": "hi there"]), detail: #"line "Luke: hi there""#))
        // A line is UTF-8 text: `.` takes the two bytes of "é", and a group gives it back whole.
        let accented = decide(.line(.regex(try regex(#"^caf(?<last>.)$"#))), "caf\u{e9}\r\n").outcome
        #expect(accented == .matched(captures: utf8(["last": "\u{e9}"]), detail: MatchDetail("line", showing: Array("caf\u{e9}".utf8))), "\(String(describing: accented))")
    }

    @Test func otherTerminatorsFrameTheirOwnLines() {
        let line = ExpectationMatcher.Rule.line(.exact(BytePattern(Array("a".utf8))))
        #expect(matched(decide(line, "a\0b", terminator: [0]).outcome))
        #expect(decide(line, "a\r\n", terminator: [0]).outcome == nil)
        #expect(failure(decide(line, "a\r\n", terminator: [10]).outcome) != nil, "with lf, the CR belongs to the line")
    }

    @Test func bytesUntilAndEnds() {
        #expect(matched(decide(.exactBytes(BytePattern(Array("+PONG\r\n".utf8))), "+PONG\r\n").outcome))
        #expect(failure(decide(.exactBytes(BytePattern(Array("+PONG\r\n".utf8))), "-ERR").outcome) != nil, "fails at the first differing byte")
        #expect(decide(.byteCount(5, equals: nil), "abcd").outcome == nil)
        #expect(decide(.byteCount(5, equals: nil), "abcdefg").left == "fg")
        #expect(decide(.until(Array("\r\n\r\n".utf8), max: 8), "ab\r\n\r\ncd").left == "cd")
        #expect(failure(decide(.until(Array("\r\n\r\n".utf8), max: 8), "0123456789abc").outcome)?.contains("within max 8") == true)
        #expect(matched(decide(.eof, "", end: .eof).outcome))
        #expect(failure(decide(.eof, "", end: .reset).outcome) != nil)
        #expect(matched(decide(.close, "", end: .reset).outcome))
        #expect(failure(decide(.eof, "x", end: .eof).outcome) != nil, "eof with unread bytes before it")
        #expect(failure(decide(.nothing, "x").outcome) != nil)
    }

    @Test func unorderedLinesMatchInAnyOrderAndRejectAStranger() {
        let rule = ExpectationMatcher.Rule.linesUnordered(remaining: [Array("a".utf8), Array("b".utf8)])
        #expect(decide(rule, "b\r\na\r\n").outcome == .matched(captures: [:], detail: #"lines "b", "a""#))
        #expect(failure(decide(rule, "b\r\nc\r\n").outcome)?.contains(#"received line "c""#) == true)
    }

    @Test func aLineThatNeverCameIsExplainedByTheEndingsThatDid() {
        let crlf = ExpectationMatcher(.line(.any), framing: TerminatedLineFraming(terminator: [13, 10], maxLine: 64))
        #expect(crlf.misframing(Array("+PONG\n".utf8)) == "received a line ending in a bare LF at offset 5; the terminator is CRLF")
        #expect(crlf.misframing(Array("ab\rcd".utf8)) == "received a line ending in a bare CR at offset 2; the terminator is CRLF")
        #expect(crlf.misframing(Array("ab\r".utf8)) == nil, "a CR at the end may be half a CRLF")
        #expect(crlf.misframing(Array("abc".utf8)) == nil)
        let lf = ExpectationMatcher(.line(.any), framing: TerminatedLineFraming(terminator: [10], maxLine: 64))
        #expect(lf.misframing(Array("a\rb".utf8)) == "received a line ending in a bare CR at offset 1; the terminator is LF")
        let cr = ExpectationMatcher(.line(.any), framing: TerminatedLineFraming(terminator: [13], maxLine: 64))
        #expect(cr.misframing(Array("a\r\n".utf8)) == nil, "a CR is the terminator, so a line did come")
        #expect(ExpectationMatcher(.any, framing: TerminatedLineFraming(terminator: [13, 10], maxLine: 64)).misframing(Array("a\n".utf8)) == nil, "only lines have endings")
        // Every rule that reads lines explains so, not only `expect line`.
        let unordered = ExpectationMatcher(.linesUnordered(remaining: [Array("a".utf8)]), framing: TerminatedLineFraming(terminator: [13, 10], maxLine: 64))
        #expect(unordered.misframing(Array("a\n".utf8)) == "received a line ending in a bare LF at offset 1; the terminator is CRLF")
        let eventually = ExpectationMatcher(.eventually(.any, max: 64, unless: nil, skipped: SkippedLines()), framing: TerminatedLineFraming(terminator: [13, 10], maxLine: 64))
        #expect(eventually.misframing(Array("a\n".utf8)) == "received a line ending in a bare LF at offset 1; the terminator is CRLF")
    }

    /// Reads lines off `stream` arriving in `pieces`, one matcher per line as expect steps do,
    /// each fed what has arrived so far and then more as it comes.
    private func lines(of pieces: [[UInt8]], terminator: [UInt8]) -> [String] {
        var buffer = ByteBuffer()
        var lines: [String] = []
        var matcher = ExpectationMatcher(.line(.any), framing: TerminatedLineFraming(terminator: terminator, maxLine: 64))
        for piece in pieces {
            buffer.writeBytes(piece)
            while case .matched(_, let detail)? = matcher.evaluate(&buffer, end: nil) {
                lines.append(detail.description)
                matcher = ExpectationMatcher(.line(.any), framing: TerminatedLineFraming(terminator: terminator, maxLine: 64))
            }
        }
        return lines
    }

    /// The line framing: every way of cutting a sample stream in up to three pieces gives the same lines.
    @Test(arguments: [[13, 10], [10], [0], Array("||".utf8)])
    func everySplitOfAStreamGivesTheSameLines(_ terminator: [UInt8]) {
        let texts = ["a", "bb", "", "ccc", "d\rd"]
        let stream = texts.flatMap { Array($0.utf8) + terminator }
        let expected = texts.map { "line " + ByteEscaper.preview(Array($0.utf8)) }
        #expect(lines(of: [stream], terminator: terminator) == expected)
        for first in 0...stream.count {
            for second in first...stream.count {
                let pieces = [Array(stream[..<first]), Array(stream[first..<second]), Array(stream[second...])]
                let found = lines(of: pieces, terminator: terminator)
                #expect(found == expected, "cut at \(first) and \(second): \(found)")
                if found != expected { return }
            }
        }
    }

    /// The edges mutants found untested: exact lengths, state kept between pieces, an empty line.
    @Test func edgesOfLengthsAndPieces() {
        #expect(decide(.byteCount(5, equals: nil), "abcde").left == "", "exactly N bytes is enough")
        #expect(failure(decide(.until(Array("\r\n\r\n".utf8), max: 8), "0123456789ab").outcome)?.contains("within max 8") == true,
                "max plus the delimiter's length without it is too many")
        #expect(decide(.until(Array("\r\n\r\n".utf8), max: 8), "0123456789a").outcome == nil)
        #expect(matched(decide(.line(.exact(BytePattern([]))), "\r\n").outcome), "a terminator alone is an empty line")
        #expect(failure(decide(.line(.any), "", end: .reset).outcome) == "expected a line, but the peer reset the connection (RST)")
        let cr = ExpectationMatcher(.line(.any), framing: TerminatedLineFraming(terminator: [13], maxLine: 64))
        #expect(cr.misframing(Array("a\nb".utf8)) == "received a line ending in a bare LF at offset 1; the terminator is CR")
    }

    /// One matcher fed a stream in pieces keeps what it has already matched and searched.
    @Test func unorderedLinesArrivingInPieces() {
        var matcher = ExpectationMatcher(.linesUnordered(remaining: [Array("aaaa".utf8), Array("b".utf8)]), framing: TerminatedLineFraming(terminator: [13, 10], maxLine: 64))
        var buffer = ByteBuffer(string: "aaaa")
        #expect(matcher.evaluate(&buffer, end: nil) == nil)
        buffer.writeString("\r\n")
        #expect(matcher.evaluate(&buffer, end: nil) == nil, "one of the two lines")
        buffer.writeString("b\r\n")
        #expect(matcher.evaluate(&buffer, end: nil) == .matched(captures: [:], detail: #"lines "aaaa", "b""#))
        var other = ExpectationMatcher(.linesUnordered(remaining: [Array("a".utf8), Array("b".utf8)]), framing: TerminatedLineFraming(terminator: [13, 10], maxLine: 64))
        var pieces = ByteBuffer(string: "b\r\n")
        #expect(other.evaluate(&pieces, end: nil) == nil)
        pieces.writeString("a\r\n")
        #expect(other.evaluate(&pieces, end: nil) == .matched(captures: [:], detail: #"lines "b", "a""#))
    }

    /// How wire checks of every line match one: without captures or messages.
    @Test func matchesALineAsTheWireChecksDo() throws {
        let line = Array("Luke: hi".utf8)
        #expect(ExpectationMatcher.matches(.any, line))
        #expect(ExpectationMatcher.matches(.exact(BytePattern(line)), line) && !ExpectationMatcher.matches(.exact(BytePattern(Array("Luke".utf8))), line))
        #expect(ExpectationMatcher.matches(.contains(Array("hi".utf8)), line) && !ExpectationMatcher.matches(.contains(Array("ho".utf8)), line))
        #expect(ExpectationMatcher.matches(.regex(try regex("^Luke")), line))
        #expect(!ExpectationMatcher.matches(.regex(try regex("^Leia")), line))
    }

    private func regex(_ pattern: String, ignoresCase: Bool = false) throws -> CompiledRegex {
        let literal = RegexLiteral(pattern: pattern, ignoresCase: ignoresCase, location: .init(file: "t.scn", line: 1, column: 1))
        return CompiledRegex(try literal.compile(expandedPattern: pattern), literal)
    }

    /// `expect eventually line`: lines that do not pass are skipped, up to max bytes of them.
    @Test func eventuallySkipsLinesUntilOnePassesWithinMax() throws {
        let rule = ExpectationMatcher.Rule.eventually(.regex(try regex(#"^content-length: (?<len>\d+)$"#, ignoresCase: true)), max: 64, unless: nil, skipped: SkippedLines())
        let found = decide(rule, "HTTP/1.1 200 OK\r\nServer: x\r\nContent-Length: 12\r\n\r\nhello")
        guard case .matched(let captures, let detail)? = found.outcome else {
            Issue.record("\(String(describing: found.outcome))")
            return
        }
        #expect(captures == utf8(["len": "12"]))
        #expect(detail.description.hasSuffix("after skipping 2 lines (28 bytes): \"HTTP/1.1 200 OK\", \"Server: x\""), "\(detail)")
        #expect(found.left == "\r\nhello", "the matching line is taken, nothing after it")

        // Fed a line at a time, it waits between them and keeps its count.
        var matcher = ExpectationMatcher(rule, framing: TerminatedLineFraming(terminator: [13, 10], maxLine: 64))
        var buffer = ByteBuffer(string: "a\r\nb")
        #expect(matcher.evaluate(&buffer, end: nil) == nil)
        buffer.writeString("\r\nContent-Length: 3\r\n")
        guard case .matched(_, let later)? = matcher.evaluate(&buffer, end: nil) else {
            Issue.record("the line that came later was not found")
            return
        }
        #expect(later.description.hasSuffix("after skipping 2 lines (6 bytes): \"a\", \"b\""), "\(later)")

        // Over max bytes of skipped lines, or a stream that ends first, fails.
        let over = ExpectationMatcher.Rule.eventually(.contains(Array("needle".utf8)), max: 10, unless: nil, skipped: SkippedLines())
        let tooFar = try #require(failure(decide(over, "0123\r\n4567\r\n89ab\r\nneedle\r\n").outcome))
        #expect(tooFar.hasPrefix("skipped 2 lines (12 bytes, over max 10) and none was a line containing \"needle\"; the last: \"4567\"; skipped: \"0123\", \"4567\""), "\(tooFar)")
        #expect(matched(decide(over, "0123\r\n45\r\nneedle\r\n").outcome), "10 bytes skipped, terminators counted, is not over max 10")
        #expect(failure(decide(over, "0123\r\n", end: .eof).outcome)?.contains("(after skipping 1 line (6 bytes): \"0123\")") == true)
        // Of many skipped lines, the first three are shown.
        let many = ExpectationMatcher.Rule.eventually(.contains(Array("needle".utf8)), max: 100, unless: nil, skipped: SkippedLines())
        guard case .matched(_, let afterMany)? = decide(many, "a\r\nb\r\nc\r\nd\r\nneedle\r\n").outcome else { Issue.record("no match"); return }
        #expect(afterMany.description.hasSuffix("after skipping 4 lines (12 bytes), the first three: \"a\", \"b\", \"c\""), "\(afterMany)")
    }

    /// `unless /RE/`: a skipped line the regex finds fails the step at once, naming it (NATS's
    /// `-ERR` before the awaited `PONG`); a line that matches the awaited one first wins.
    @Test func eventuallyUnlessFailsOnASkippedErrorLine() throws {
        let rule = ExpectationMatcher.Rule.eventually(.exact(BytePattern(Array("PONG".utf8))), max: 1024, unless: try regex("^-ERR"), skipped: SkippedLines())
        let failed = try #require(failure(decide(rule, "+OK\r\n-ERR 'Invalid Publish Subject'\r\nPONG\r\n").outcome))
        #expect(failed == "a line matched unless /^-ERR/ while line \"PONG\" was awaited: \"-ERR 'Invalid Publish Subject'\" (after skipping 1 line (5 bytes): \"+OK\")",
                "\(failed)")
        #expect(matched(decide(rule, "+OK\r\nPONG\r\n-ERR late\r\n").outcome))
        let first = try #require(failure(decide(rule, "-ERR 'Authorization Violation'\r\n").outcome))
        #expect(first == "a line matched unless /^-ERR/ while line \"PONG\" was awaited: \"-ERR 'Authorization Violation'\"",
                "nothing was skipped before it: \(first)")
    }

    /// `expect until /re/`: up to and with the first match, bytes one to a character.
    @Test func untilARegexTakesUpToTheFirstMatchWithinMax() throws {
        let blank = ExpectationMatcher.Rule.untilMatch(try regex(#"\r\n\r\n"#), max: 16)
        let headers = decide(blank, "a: b\r\nc: d\r\n\r\nbody")
        #expect(matched(headers.outcome) && headers.left == "body", "\(String(describing: headers.outcome))")
        #expect(decide(blank, "a: b\r\n\r").outcome == nil, "a match may still come")
        #expect(failure(decide(blank, String(repeating: "x", count: 16)).outcome)?.contains("within max 16 bytes") == true)
        #expect(failure(decide(blank, "a: b\r\n", end: .eof).outcome)?.hasPrefix("the peer closed the connection (FIN) before a match of /\\r\\n\\r\\n/") == true)

        // Named groups set variables with the exact bytes they took; offsets count bytes, whatever they are.
        var matcher = ExpectationMatcher(.untilMatch(try regex(#"(?<name>[^ ]+) (?<size>\d+)\r\n"#), max: 64),
                                         framing: TerminatedLineFraming(terminator: [13, 10], maxLine: 64))
        var buffer = ByteBuffer(bytes: [0x7F, 0x80, 0xFF] + Array("\u{e9}t\u{e9} 42\r\nrest".utf8))
        guard case .matched(let captures, _)? = matcher.evaluate(&buffer, end: nil) else {
            Issue.record("no match")
            return
        }
        #expect(captures == ["name": [0x7F, 0x80, 0xFF] + Array("\u{e9}t\u{e9}".utf8), "size": Array("42".utf8)])
        #expect(String(buffer: buffer) == "rest")
    }

    /// Evaluates `matcher` again every 10 ms, at most 1,000 times, until it decides: a window
    /// longer than `RegexSearch.inlineLimit` is searched on a search thread.
    private func awaitVerdict(_ matcher: inout ExpectationMatcher, _ buffer: inout ByteBuffer, end: InboundEnd? = nil) async throws -> MatchOutcome? {
        for _ in 0..<1000 {
            if let outcome = matcher.evaluate(&buffer, end: end) { return outcome }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// A window longer than `RegexSearch.inlineLimit`, arriving a byte a read: each search on
    /// the search thread takes what came meanwhile, the matcher is woken when one is done, and
    /// the match, its groups and the bytes left are a whole window's.
    @Test func aLongWindowIsSearchedOnASearchThreadAsItArrives() async throws {
        let rule = ExpectationMatcher.Rule.untilMatch(try regex(#"(?<name>[^ ]+) (?<size>\d+)\r\n"#), max: 4096)
        var matcher = ExpectationMatcher(rule, framing: TerminatedLineFraming(terminator: [13, 10], maxLine: 64))
        let wakes = NIOLockedValueBox(0)
        let wake: @Sendable () -> Void = { wakes.withLockedValue { $0 += 1 } }
        let name = [UInt8](repeating: UInt8(ascii: "a"), count: 2 * RegexSearch.inlineLimit) + [0x7F, 0x80, 0xFF, 0xE9]
        var buffer = ByteBuffer()
        var outcome: MatchOutcome?
        for byte in name + Array(" 42\r\nrest".utf8) {
            buffer.writeInteger(byte)
            if outcome == nil { outcome = matcher.evaluate(&buffer, end: nil, waker: { wake }) }
        }
        if outcome == nil { outcome = try await awaitVerdict(&matcher, &buffer) }
        guard case .matched(let captures, let detail)? = outcome else {
            Issue.record("no match: \(String(describing: outcome))")
            return
        }
        #expect(captures == ["name": name, "size": Array("42".utf8)])
        #expect(detail.description.hasPrefix("\(name.count + 5) bytes up to a match of"), "\(detail)")
        #expect(String(buffer: buffer) == "rest")
        #expect(wakes.withLockedValue { $0 } > 0, "no search ran on a search thread")
    }

    /// A long window fails for its max or its end only once a search covered all of it.
    @Test func aLongWindowFailsOnlyOnceSearched() async throws {
        let rule = ExpectationMatcher.Rule.untilMatch(try regex(#"\r\n\r\n"#), max: 1024)
        let long = String(repeating: "x", count: 2 * RegexSearch.inlineLimit)
        var matcher = ExpectationMatcher(rule, framing: TerminatedLineFraming(terminator: [13, 10], maxLine: 64))
        var buffer = ByteBuffer(string: long)
        #expect(matcher.evaluate(&buffer, end: .eof) == nil, "decided before its search")
        let ended = try #require(failure(try await awaitVerdict(&matcher, &buffer, end: .eof)))
        #expect(ended.hasPrefix("the peer closed the connection (FIN) before a match of /\\r\\n\\r\\n/"), "\(ended)")

        var capped = ExpectationMatcher(rule, framing: TerminatedLineFraming(terminator: [13, 10], maxLine: 64))
        var over = ByteBuffer(string: long + long + long)
        let tooLong = try #require(failure(try await awaitVerdict(&capped, &over)))
        #expect(tooLong.hasPrefix("no match of /\\r\\n\\r\\n/ within max 1024 bytes"), "\(tooLong)")
    }

    /// A window of `RegexSearch.inlineLimit` bytes is still searched at once; one over it that
    /// a search covered without a match is searched again only when more bytes come, and says
    /// while a search runs that it does.
    @Test func aLongWindowIsSearchedOncePerArrival() async throws {
        let atLimit = String(repeating: "x", count: RegexSearch.inlineLimit - 4) + "\r\n\r\n"
        let blank = ExpectationMatcher.Rule.untilMatch(try regex(#"\r\n\r\n"#), max: 8192)
        #expect(matched(decide(blank, atLimit).outcome), "a window of inlineLimit bytes waited for a search thread")

        // From every start, `[^ ]+` runs to the end and back: about 2,000,000 steps for 2,000 bytes.
        let slow = ExpectationMatcher.Rule.untilMatch(try regex(#"(?<name>[^ ]+) (?<size>\d+)\r\n"#), max: 8192)
        var matcher = ExpectationMatcher(slow, framing: TerminatedLineFraming(terminator: [13, 10], maxLine: 64))
        let wakes = NIOLockedValueBox(0)
        let wake: @Sendable () -> Void = { wakes.withLockedValue { $0 += 1 } }
        var buffer = ByteBuffer(string: String(repeating: "x", count: 2000))
        #expect(matcher.evaluate(&buffer, end: nil, waker: { wake }) == nil)
        #expect(matcher.waitingFor.hasSuffix("; the regex was still searching the first 2000 bytes (a regex that backtracks can take minutes over a long text)"),
                "\(matcher.waitingFor)")
        await Eventually.holds { wakes.withLockedValue { $0 } > 0 }
        for _ in 0..<3 { #expect(matcher.evaluate(&buffer, end: nil) == nil) }
        #expect(!matcher.waitingFor.contains("still searching"), "searched again with no new byte: \(matcher.waitingFor)")
        try await Task.sleep(for: .milliseconds(50))
        #expect(wakes.withLockedValue { $0 } == 1)

        buffer.writeString(" 7\r\n")
        let outcome = try await awaitVerdict(&matcher, &buffer)
        guard case .matched(let captures, _)? = outcome else {
            Issue.record("no match: \(String(describing: outcome))")
            return
        }
        #expect(captures == utf8(["name": String(repeating: "x", count: 2000), "size": "7"]))
    }

    /// A line longer than `RegexSearch.inlineLimit` judged by a regex is judged on a search
    /// thread, held meanwhile: `expect line` fails or passes on it as on a short one, and
    /// `expect eventually line` skips it and counts its bytes.
    @Test func aLongLineIsJudgedByItsRegexOnASearchThread() async throws {
        let long = String(repeating: "x", count: 2000)
        let framing = TerminatedLineFraming(terminator: [13, 10], maxLine: 4096)
        let pair = ExpectationMatcher.Rule.line(.regex(try regex(#"(?<name>[^ ]+) (?<size>\d+)"#)))
        var matcher = ExpectationMatcher(pair, framing: framing)
        var buffer = ByteBuffer(string: long + "\r\nnext\r\n")
        #expect(matcher.evaluate(&buffer, end: nil) == nil)
        #expect(matcher.waitingFor.hasSuffix("; the regex was still searching a line of 2000 bytes (a regex that backtracks can take minutes over a long text)"),
                "\(matcher.waitingFor)")
        let rejected = try #require(failure(try await awaitVerdict(&matcher, &buffer)))
        #expect(rejected.hasPrefix("expected a line matching /(?<name>[^ ]+) (?<size>\\d+)/"), "\(rejected)")
        #expect(String(buffer: buffer) == "next\r\n")

        var passing = ExpectationMatcher(pair, framing: framing)
        var sized = ByteBuffer(string: long + " 42\r\n")
        guard case .matched(let captures, _)? = try await awaitVerdict(&passing, &sized) else {
            Issue.record("no match")
            return
        }
        #expect(captures == utf8(["name": long, "size": "42"]))

        // A line of exactly inlineLimit bytes is still judged at once; a long one is read as
        // UTF-8 text, as a short one is: `.` takes the two bytes of "é".
        var atLimit = ExpectationMatcher(pair, framing: framing)
        var short = ByteBuffer(string: String(repeating: "x", count: RegexSearch.inlineLimit - 3) + " 42\r\n")
        #expect(matched(atLimit.evaluate(&short, end: nil)), "a line of inlineLimit bytes waited for a search thread")
        var accented = ExpectationMatcher(.line(.regex(try regex(#" (?<word>caf.)$"#))), framing: framing)
        var word = ByteBuffer(string: long + " caf\u{e9}\r\n")
        guard case .matched(let words, _)? = try await awaitVerdict(&accented, &word) else {
            Issue.record("no match")
            return
        }
        #expect(words == utf8(["word": "caf\u{e9}"]))

        let header = ExpectationMatcher.Rule.eventually(.regex(try regex(#"^content-length: (?<len>\d+)$"#, ignoresCase: true)), max: 4096, unless: nil, skipped: SkippedLines())
        var skipping = ExpectationMatcher(header, framing: framing)
        var reply = ByteBuffer(string: "X-Long: " + long + "\r\nContent-Length: 12\r\n\r\nbody")
        guard case .matched(let found, let detail)? = try await awaitVerdict(&skipping, &reply) else {
            Issue.record("no match")
            return
        }
        #expect(found == utf8(["len": "12"]))
        #expect(detail.description.contains("after skipping 1 line (2010 bytes): \"X-Long: xxx"), "\(detail)")
        #expect(String(buffer: reply) == "\r\nbody")
    }

    /// The HTTP head a WebSocket upgrade reads: up to a blank line, failing at exactly `max`
    /// bytes without one, and saying what came when the stream ended first (nothing, or bytes).
    @Test func anHTTPHeadEndsAtABlankLineWithinMax() {
        let head = ExpectationMatcher.Rule.head(max: 32)
        let answered = decide(head, "HTTP/1.1 101 OK\r\n\r\nframes")
        #expect(matched(answered.outcome) && answered.left == "frames", "\(String(describing: answered.outcome))")
        #expect(decide(head, "HTTP/1.1 101 OK\r\n").outcome == nil, "a blank line may still come")
        #expect(failure(decide(head, String(repeating: "h", count: 32)).outcome)?.hasPrefix("no blank line ending an HTTP head within 32 bytes") == true)
        #expect(failure(decide(head, "", end: .eof).outcome) == "the peer closed the connection (FIN) before the end of an HTTP head")
        #expect(failure(decide(head, "HTTP/1.1", end: .eof).outcome) == "the peer closed the connection (FIN) before the end of an HTTP head: received \"HTTP/1.1\"")
    }
}

/// Captures as the matcher gives them: each value's bytes.
private func utf8(_ captures: [String: String]) -> [String: [UInt8]] {
    captures.mapValues { Array($0.utf8) }
}
