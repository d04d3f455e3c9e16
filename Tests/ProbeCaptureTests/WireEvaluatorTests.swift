import ProbeFraming
import ProbeScript
import Testing
@testable import ProbeCapture

/// Each wire property passes on a conforming trace and fails, with evidence, on a violating one.
@Suite struct WireEvaluatorTests {
    let builder = PacketBuilder()

    private func fromServer(_ pieces: [String], close: TCPSegment.Flags = [.fin, .ack]) -> DirectionTrace {
        ConnectionTrace(segments: builder.serverSends(pieces, close: close), probePort: 40000, peerPort: 7000).fromPeer
    }

    @Test func terminatorCRLF() {
        #expect(WireEvaluator.evaluate(.terminator(.crlf), on: fromServer(["a\r\n", "b\r\n"])).passed)
        let bareLF = WireEvaluator.evaluate(.terminator(.crlf), on: fromServer(["a\r\n", "b\n"]))
        #expect(!bareLF.passed)
        #expect(bareLF.summary.contains("bare LF (no CR before it) at stream offset 4"))
        #expect(bareLF.evidence.map(\.payload) == [Array("b\n".utf8)])
        #expect(!WireEvaluator.evaluate(.terminator(.crlf), on: fromServer(["a\rb\r\n"])).passed)
        let unterminated = WireEvaluator.evaluate(.terminator(.crlf), on: fromServer(["a\r\nb"]))
        #expect(!unterminated.passed && unterminated.summary.contains("the last byte ends without a crlf terminator"), "\(unterminated.summary)")
        #expect(WireEvaluator.evaluate(.terminator(.lf), on: fromServer(["a\n"])).passed)
        #expect(!WireEvaluator.evaluate(.terminator(.lf), on: fromServer(["a\r\n"])).passed)
    }

    @Test func linesUnsplitAndLineInOneSegment() {
        let whole = fromServer(["+OK\r\n", "a\r\nb\r\n"])
        #expect(WireEvaluator.evaluate(.linesUnsplit(terminator: [13, 10]), on: whole).passed)
        let split = fromServer(["+O", "K\r\n"])
        let verdict = WireEvaluator.evaluate(.linesUnsplit(terminator: [13, 10]), on: split)
        #expect(!verdict.passed)
        #expect(verdict.evidence.count == 2)
        let isOK: @Sendable ([UInt8]) -> Bool = { $0 == Array("+OK".utf8) }
        #expect(WireEvaluator.evaluate(.lineInOneSegment(description: "+OK", terminator: [13, 10], matches: isOK), on: whole).passed)
        #expect(!WireEvaluator.evaluate(.lineInOneSegment(description: "+OK", terminator: [13, 10], matches: isOK), on: split).passed)
        // A line expected with its terminator matches none, and the failure says which would.
        let withTerminator: @Sendable ([UInt8]) -> Bool = { $0 == Array("+OK\r\n".utf8) }
        let unterminated = WireEvaluator.evaluate(.lineInOneSegment(description: "\"+OK\\r\\n\"", terminator: [13, 10], matches: withTerminator), on: whole)
        #expect(!unterminated.passed && unterminated.summary == #"no captured line matches "+OK\r\n" (a line is matched without its terminator: "+OK" would match)"#,
                "\(unterminated.summary)")
        let elsewhere = WireEvaluator.evaluate(.lineInOneSegment(description: "\"b\"", terminator: [13, 10], matches: { (line: [UInt8]) in line == Array("x".utf8) }), on: whole)
        #expect(elsewhere.summary == #"no captured line matches "b""#, "\(elsewhere.summary)")
        // The line looked for comes after others: they are passed over, not taken for it.
        let isPong: @Sendable ([UInt8]) -> Bool = { $0 == Array("pong".utf8) }
        let later = WireEvaluator.evaluate(.lineInOneSegment(description: "pong", terminator: [13, 10], matches: isPong),
                                           on: fromServer(["hello\r\n", "pong\r\n"]))
        #expect(later.passed && later.summary == "line pong arrived in 1 segment", "\(later.summary)")
        let laterSplit = WireEvaluator.evaluate(.lineInOneSegment(description: "pong", terminator: [13, 10], matches: isPong),
                                                on: fromServer(["hello\r\npo", "ng\r\n"]))
        #expect(laterSplit.summary == "line pong arrived in 2 segments", "\(laterSplit.summary)")
        // Every line that matches is judged: a pong split the second time fails, a pong whole every time passes.
        let secondSplit = WireEvaluator.evaluate(.lineInOneSegment(description: "pong", terminator: [13, 10], matches: isPong),
                                                 on: fromServer(["pong\r\n", "po", "ng\r\n", "pong\r\n"]))
        #expect(!secondSplit.passed && secondSplit.summary == "line pong (the 2nd that matches, at stream offset 6) arrived in 2 segments",
                "\(secondSplit.summary)")
        #expect(secondSplit.evidence.map(\.payload) == [Array("po".utf8), Array("ng\r\n".utf8)])
        let allWhole = WireEvaluator.evaluate(.lineInOneSegment(description: "pong", terminator: [13, 10], matches: isPong),
                                              on: fromServer(["pong\r\n", "x\r\npong\r\n", "pong\r\n"]))
        #expect(allWhole.passed && allWhole.summary == "3 lines pong, each in 1 segment", "\(allWhole.summary)")
        let none = WireEvaluator.evaluate(.lineInOneSegment(description: "nope", terminator: [13, 10], matches: { _ in false }), on: whole)
        #expect(!none.passed && none.summary == "no captured line matches nope", "\(none.summary)")
    }

    /// A property of every line or message fails when there is none to judge: a peer that sent
    /// nothing, or only bytes that make no whole line, has not shown its lines end in CRLF.
    @Test func propertiesOfLinesFailOverNothing() {
        let silent = fromServer([])
        for check in [WireCheck.terminator(.crlf), .linesUnsplit(terminator: [13, 10]), .messagesUnsplit(.length(LengthHeader(width: 2)))] {
            let verdict = WireEvaluator.evaluate(check, on: silent)
            #expect(!verdict.passed && verdict.summary.hasSuffix("to judge: nothing was sent this way"), "\(verdict.summary)")
        }
        let partial = WireEvaluator.evaluate(.linesUnsplit(terminator: [13, 10]), on: fromServer(["no end"]))
        #expect(!partial.passed && partial.summary == "no complete line to judge: 6 bytes were sent this way, none a whole line", "\(partial.summary)")
        let one = WireEvaluator.evaluate(.messagesUnsplit(.lines(terminator: [13, 10])), on: fromServer(["a\r\n"]))
        #expect(one.passed && one.summary == "1 line, not split across segments", "\(one.summary)")
    }

    @Test func ordinals() {
        #expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(WireEvaluator.ordinal) == ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"])
    }

    /// Lines end only at the whole terminator: a CR inside a CRLF-framed line is not an end.
    @Test func lineRangesEndAtTheWholeTerminator() {
        #expect(MessageUnits.lines(terminator: [13, 10]).messages(in: Array("a\rb\r\nc\r\n".utf8)).map(\.range) == [0..<5, 5..<8])
        #expect(MessageUnits.lines(terminator: [13, 10]).messages(in: Array("a\nb\r\n".utf8)).map(\.range) == [0..<5])
        #expect(MessageUnits.lines(terminator: [10]).messages(in: Array("a\nb\n".utf8)).map(\.range) == [0..<2, 2..<4])
        #expect(MessageUnits.lines(terminator: Array("||".utf8)).messages(in: Array("ab||c|d||".utf8)).map(\.range) == [0..<4, 4..<9])
    }

    /// Flags and windows are judged on a trace with a hole; the stream's content is not.
    @Test func flagChecksNeedNoStreamButContentChecksDo() {
        let builder = PacketBuilder()
        let segments = [builder.packet(fromClient: false, sequence: 100, flags: [.syn, .ack], at: 0),
                        builder.packet(fromClient: false, sequence: 101, flags: .ack, payload: Array("a\r\n".utf8), at: 0.1),
                        builder.packet(fromClient: false, sequence: 110, flags: .ack, payload: Array("b\r\n".utf8), window: 0, at: 0.2),
                        builder.packet(fromClient: false, sequence: 113, flags: [.fin, .ack], at: 0.3)].compactMap(PacketDecoder.segment)
        let holed = DirectionTrace(segments: segments)
        #expect(!holed.holes.isEmpty)
        #expect(WireEvaluator.evaluate(.fin, on: holed).passed)
        #expect(WireEvaluator.evaluate(.noRst, on: holed).passed)
        #expect(WireEvaluator.evaluate(.zeroWindow, on: holed).passed)
        #expect(!WireEvaluator.evaluate(.rst, on: holed).passed)
        #expect(WireEvaluator.evaluate(.terminator(.crlf), on: holed).summary.hasPrefix("inconclusive: the capture is missing 6 bytes at stream offset 3"))
    }

    /// Every way of cutting three lines into at most three segments: the first line with more
    /// than one carrier is the one reported, or none is.
    @Test func linesUnsplitFindsTheFirstSplitLineWhereverTheCutsFall() {
        let text = Array("ab\r\ncd\r\nef\r\n".utf8)
        var cases = 0
        for first in 0..<text.count {
            for second in first..<text.count {
                let cuts = Set([first, second].filter { $0 > 0 }).sorted()
                let bounds = [0] + cuts + [text.count]
                let pieces = zip(bounds, bounds.dropFirst()).map { String(decoding: text[$0..<$1], as: UTF8.self) }
                let trace = fromServer(pieces)
                let splitLine = MessageUnits.lines(terminator: [13, 10]).messages(in: trace.stream).map(\.range).first { trace.carriers(of: $0).count > 1 }
                let verdict = WireEvaluator.evaluate(.linesUnsplit(terminator: [13, 10]), on: trace)
                #expect(verdict.passed == (splitLine == nil), "\(pieces)")
                if let splitLine {
                    #expect(verdict.summary.contains("at offset \(splitLine.lowerBound)) was split across \(trace.carriers(of: splitLine).count) segments"), "\(pieces): \(verdict.summary)")
                } else {
                    #expect(verdict.summary == "3 lines, none split across segments", "\(pieces)")
                }
                cases += 1
            }
        }
        #expect(cases == 78)
    }

    @Test func carriersAreTheSegmentsOverlappingARange() {
        let trace = fromServer(["ab", "cde", "f", "ghij"])
        #expect(trace.dataSegments.map(\.range) == [0..<2, 2..<5, 5..<6, 6..<10])
        func carried(_ range: Range<Int>) -> [Range<Int>] { trace.carriers(of: range).map(\.range) }
        #expect(carried(0..<1) == [0..<2])
        #expect(carried(1..<3) == [0..<2, 2..<5])
        #expect(carried(2..<5) == [2..<5])
        #expect(carried(4..<7) == [2..<5, 5..<6, 6..<10])
        #expect(carried(9..<10) == [6..<10])
        #expect(carried(10..<12) == [])
        #expect(carried(0..<10).count == 4)
    }

    @Test func countsAndSizes() {
        let trace = fromServer(["abc", "defgh"])
        #expect(WireEvaluator.evaluate(.segments(.equal, 2), on: trace).passed)
        #expect(!WireEvaluator.evaluate(.segments(.less, 2), on: trace).passed)
        #expect(WireEvaluator.evaluate(.maxSegment(.lessOrEqual, 5), on: trace).passed)
        #expect(WireEvaluator.evaluate(.maxSegment(.less, 5), on: trace).summary == "the largest segment's payload: 5 (expected < 5)")
        #expect(WireEvaluator.evaluate(.bytes(.equal, 8), on: trace).passed)
        #expect(!WireEvaluator.evaluate(.bytes(.notEqual, 8), on: trace).passed)
    }

    @Test(arguments: [
        (Terminator.crlf, "ab\r\ncd\r\n", "2 lines, each ending in crlf"),
        (.crlf, "ab\r\ncd\n", "bare LF (no CR before it) at stream offset 6: \"ab\\r\\ncd\\n\""),
        (.crlf, "ab\rcd\r\n", "bare CR (no LF after it) at stream offset 2: \"ab\\rcd\\r\\n\""),
        (.crlf, "ab\r\ncd\r", "the last 3 bytes end without a crlf terminator: \"ab\\r\\ncd\\r\""),
        (.crlf, "\nab\r\n", "bare LF (no CR before it) at stream offset 0: \"\\nab\\r\\n\""),
        (.lf, "ab\ncd\n", "2 lines, each ending in lf"),
        (.lf, "ab\ncd\r\n", "CRLF where a bare LF terminator was expected, at stream offset 5: \"ab\\ncd\\r\\n\""),
        (.cr, "ab\rcd\r", "2 lines, each ending in cr"),
        (.cr, "ab\rcd\n\r", "LF where a CR terminator was expected, at stream offset 5: \"ab\\rcd\\n\\r\""),
        (.nul, "ab\0c\n\0", "2 lines, each ending in nul"),
        (.nul, "ab\0c", "the last byte ends without a nul terminator: \"ab\\0c\""),
    ])
    func everyTerminatorRuleAndItsMessage(_ terminator: Terminator, _ stream: String, _ summary: String) {
        #expect(WireEvaluator.evaluate(.terminator(terminator), on: fromServer([stream])).summary == summary)
    }

    @Test func finRstAndZeroWindow() {
        let fin = fromServer(["x"])
        let rst = fromServer(["x"], close: [.rst, .ack])
        #expect(WireEvaluator.evaluate(.fin, on: fin).passed && !WireEvaluator.evaluate(.fin, on: rst).passed)
        #expect(WireEvaluator.evaluate(.noRst, on: fin).passed && !WireEvaluator.evaluate(.noRst, on: rst).passed)
        #expect(WireEvaluator.evaluate(.rst, on: rst).passed && !WireEvaluator.evaluate(.rst, on: fin).passed)
        #expect(WireEvaluator.evaluate(.noFin, on: rst).passed && !WireEvaluator.evaluate(.noFin, on: fin).passed)
        #expect(!WireEvaluator.evaluate(.zeroWindow, on: fin).passed)
        let zero = DirectionTrace(segments: [builder.packet(fromClient: false, sequence: 1, flags: .ack, window: 0, at: 0)].compactMap(PacketDecoder.segment))
        #expect(WireEvaluator.evaluate(.zeroWindow, on: zero).passed)
    }

    /// A receiver whose every read reopened the window before an ACK said zero kept its sender
    /// waiting all the same: the failure counts the times the sender filled the window (scaled
    /// when both SYNs offered a scale), a segment sent again to its edge too, as Wireshark does.
    @Test(arguments: [(7 as Int?, ", though the other side filled the window to its edge 3 times and waited (Wireshark's window full)"),
                      (nil, "")])
    func noZeroWindowCountsTheTimesTheWindowWasFilled(_ peerScale: Int?, _ note: String) {
        let trace = ConnectionTrace(segments: builder.windowFilledThrice(serverScale: peerScale), probePort: 40000, peerPort: 7000)
        let verdict = WireEvaluator.evaluate(.zeroWindow, on: trace.fromProbe, opposite: trace.fromPeer)
        #expect(!verdict.passed && verdict.summary.hasPrefix("no segment advertised a zero window" + note), "\(verdict.summary)")
        #expect(note.isEmpty == (verdict.summary == "no segment advertised a zero window"), "\(verdict.summary)")
        #expect(WindowFullAnalysis.fills(by: trace.fromPeer, of: trace.fromProbe) == (peerScale == nil ? 0 : 3))
    }

    /// A RST that answers bytes sent after the sender's FIN (the probe's close_notify into a
    /// socket the peer closed) is provoked: `no rst` passes, naming it, and `rst` fails. A RST
    /// before any such bytes is the sender's own.
    @Test func aProvokedResetIsNotThePeersOwn() throws {
        let packets = [
            builder.packet(fromClient: false, sequence: 5000, flags: [.psh, .ack], payload: Array("bye\r\n".utf8), at: 0.1),
            builder.packet(fromClient: false, sequence: 5005, flags: [.fin, .ack], at: 0.2),
            builder.packet(fromClient: true, sequence: 100, flags: [.psh, .ack], payload: [0x15, 0x03, 0x03, 0x00, 0x13], at: 0.3),
            builder.packet(fromClient: false, sequence: 5006, flags: .rst, at: 0.31),
        ].compactMap(PacketDecoder.segment)
        let trace = ConnectionTrace(segments: packets, probePort: 40000, peerPort: 7000)
        let noRst = WireEvaluator.evaluate(.noRst, on: trace.fromPeer, opposite: trace.fromProbe)
        #expect(noRst.passed && noRst.summary == "no RST was sent of its own (a RST not counted: provoked by the 5 bytes sent to it after its FIN, such as a TLS close_notify or a late send)",
                "\(noRst.summary)")
        #expect(!WireEvaluator.evaluate(.rst, on: trace.fromPeer, opposite: trace.fromProbe).passed)
        // Without the other direction, or with the RST before the late bytes, it is the peer's.
        #expect(!WireEvaluator.evaluate(.noRst, on: trace.fromPeer).passed)
        let earlyReset = try #require(PacketDecoder.segment(builder.packet(fromClient: false, sequence: 5006, flags: .rst, at: 0.25)))
        let early = ConnectionTrace(segments: [packets[0], packets[1], earlyReset, packets[2]], probePort: 40000, peerPort: 7000)
        #expect(!WireEvaluator.evaluate(.noRst, on: early.fromPeer, opposite: early.fromProbe).passed)
    }

    /// The rule: a peer's RST is provoked (not its own) only when the other side's bytes came
    /// after the peer's FIN and before the RST; a FIN then RST with nothing sent after the FIN
    /// is the peer's doing. Each case: when the peer sent FIN and RST, when the probe sent
    /// bytes (nil: none), whether the capture kept only headers, and whether `no rst` passes.
    @Test(arguments: [(0.2, 0.31, 0.3 as Double?, false, true), (0.2, 0.31, nil, false, false), (0.2, 0.31, 0.1, false, false),
                      (0.2, 0.25, 0.3, false, false), (0.2, 0.31, 0.3, true, true), (0.2, 0.31, 0.2, false, true)])
    func aResetIsProvokedOnlyByBytesThatCameAfterTheFIN(_ fin: Double, _ reset: Double, _ sent: Double?, _ headersOnly: Bool, _ provoked: Bool) {
        var packets = [builder.packet(fromClient: false, sequence: 5000, flags: [.psh, .ack], payload: Array("bye\r\n".utf8), at: 0.05),
                       builder.packet(fromClient: false, sequence: 5005, flags: [.fin, .ack], at: fin),
                       builder.packet(fromClient: false, sequence: 5006, flags: .rst, at: reset)]
        if let sent { packets.append(builder.packet(fromClient: true, sequence: 100, flags: [.psh, .ack], payload: [1, 2, 3, 4, 5], at: sent)) }
        var segments = packets.compactMap(PacketDecoder.segment).sorted { $0.timestamp < $1.timestamp }
        if headersOnly { segments = segments.map { TCPSegment(timestamp: $0.timestamp, sourceAddress: $0.sourceAddress, destinationAddress: $0.destinationAddress, sourcePort: $0.sourcePort, destinationPort: $0.destinationPort, sequence: $0.sequence, acknowledgement: $0.acknowledgement, flags: $0.flags, window: $0.window, payload: [], length: $0.length) } }
        let trace = ConnectionTrace(segments: segments, probePort: 40000, peerPort: 7000)
        #expect(WireEvaluator.evaluate(.noRst, on: trace.fromPeer, opposite: trace.fromProbe).passed == provoked)
        #expect(WireEvaluator.evaluate(.rst, on: trace.fromPeer, opposite: trace.fromProbe).passed == !provoked)
    }

    @Test func aHoleMakesStreamPropertiesInconclusive() {
        let packets = [builder.packet(fromClient: false, sequence: 5000, flags: [.syn, .ack], at: 0),
                       builder.packet(fromClient: false, sequence: 5010, flags: .ack, payload: Array("x\r\n".utf8), at: 1)]
        let verdict = WireEvaluator.evaluate(.terminator(.crlf), on: DirectionTrace(segments: packets.compactMap(PacketDecoder.segment)))
        #expect(!verdict.passed)
        #expect(verdict.summary.hasPrefix("inconclusive"))
    }

    @Test func aSnapLengthKeepsLengthsButMakesPayloadChecksInconclusive() throws {
        let full = builder.serverSends(["hello\r\n", "world\r\n"])
        // What a 60-byte snap length keeps of each packet: every header and 2 bytes of payload.
        let cut = full.map { segment -> TCPSegment in
            var kept = segment
            kept.payload = Array(segment.payload.prefix(2))
            return kept
        }
        let trace = ConnectionTrace(segments: cut, probePort: 40000, peerPort: 7000).fromPeer
        #expect(trace.payloadsTruncated && trace.stream.isEmpty)
        #expect(trace.byteCount == 14)
        #expect(trace.dataSegments.map(\.range) == [0..<7, 7..<14])
        #expect(WireEvaluator.evaluate(.bytes(.equal, 14), on: trace).passed)
        #expect(WireEvaluator.evaluate(.segments(.equal, 2), on: trace).passed)
        #expect(WireEvaluator.evaluate(.maxSegment(.equal, 7), on: trace).passed)
        #expect(WireEvaluator.evaluate(.fin, on: trace).passed)
        let terminator = WireEvaluator.evaluate(.terminator(.crlf), on: trace)
        #expect(!terminator.passed && terminator.summary.hasPrefix("inconclusive: the capture kept only the start of each packet"))
        #expect(!WireEvaluator.evaluate(.linesUnsplit(terminator: [13, 10]), on: trace).passed)
        #expect(SegmentFormatter(start: 0, leftPort: 40000).row(trace.dataSegments[0].segment).contains(#"len 7 win 512 "he"…"#))
    }
}
