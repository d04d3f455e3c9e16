import ProbeScript
import Testing

/// The HTTP/2 forms h2spec's cases need: a header block of pieces in order, `continued at`,
/// payload pieces joined, `expect frame … length N … or close`, and `expect stream end N`.
@Suite struct HTTP2SyntaxTests {
    static func frame(_ line: String) throws -> HTTP2FrameSend {
        let statements = try Fixtures.statements("connect h2://127.0.0.1:{port}/\n" + line)
        guard case .send(let step) = statements[1].kind, case .http2(.frame(let frame)) = step.data else {
            throw FixtureError.invalid(["not a frame: \(line)"])
        }
        return frame
    }

    static func expectation(_ line: String) throws -> HTTP2Expectation {
        let statements = try Fixtures.statements("connect h2://127.0.0.1:{port}/\n" + line)
        guard case .expect(.http2(let expectation), _) = statements[1].kind else { throw FixtureError.invalid(["not an HTTP/2 expect: \(line)"]) }
        return expectation
    }

    @Test func aHeaderBlockIsItsPiecesInTheOrderWritten() throws {
        let frame = try Self.frame(#"send frame headers 1 end-headers block hex"3f 61" ":method"="GET" ":path"="/" block hex"ba" continued at 5 10"#)
        guard case .headerBlock(let pieces) = frame.payload else { Issue.record("no header block"); return }
        #expect(pieces.count == 3)
        if case .raw(let bytes) = pieces[0] { #expect(bytes.literalBytes == [0x3f, 0x61]) } else { Issue.record("first: \(pieces[0])") }
        if case .fields(let fields) = pieces[1] { #expect(fields.count == 2, "neighbouring fields are one run") } else { Issue.record("second: \(pieces[1])") }
        if case .raw(let bytes) = pieces[2] { #expect(bytes.literalBytes == [0xba]) } else { Issue.record("third: \(pieces[2])") }
        #expect(frame.continuedAt.map(\.literal) == [5, 10])
        #expect(frame.flags == 0x4)
    }

    @Test func payloadPiecesJoin() throws {
        let frame = try Self.frame(#"send frame data 1 end-stream "x" * 3 "y""#)
        guard case .bytes(let bytes) = frame.payload else { Issue.record("no bytes"); return }
        #expect(bytes.literalBytes == Array("xxxy".utf8))
    }

    @Test func anExpectedFrameTakesALengthAndOrClose() throws {
        guard case .frame(let ping) = try Self.expectation(#"expect frame ping ack hex"00 00 00 00 00 00 00 00" or close"#) else { Issue.record("not a frame"); return }
        #expect(ping.orClose && ping.payload != nil)
        guard case .frame(let data) = try Self.expectation("expect frame data 1 length 1") else { Issue.record("not a frame"); return }
        #expect(data.length?.literal == 1 && !data.orClose)
        guard case .frame(let goaway) = try Self.expectation("expect frame goaway error PROTOCOL_ERROR or FRAME_SIZE_ERROR or close") else { Issue.record("not a frame"); return }
        #expect(goaway.errorCodes.map(\.literal) == [1, 6] && goaway.orClose, "'or close' ends the codes")
    }

    @Test func expectStreamEndNamesTheStream() throws {
        #expect(try Self.expectation("expect stream end 3") == .streamEnd(Argument(3, text: "3", at: SourceLocation(file: "test.scn", line: 2, column: 19))))
        let wrong = Fixtures.load("connect h2://127.0.0.1:{port}/\nexpect stream ended 3", variables: ["port"])
        #expect(wrong.diagnostics.first?.message.contains("'ended'") == true, "\(wrong.diagnostics.map(\.message))")
    }

    @Test func aConnectDefinesThePeersSettingsForTheChecks() {
        let result = Fixtures.load("connect h2://127.0.0.1:{port}/\nsend frame data 1 \"x\" * {http2.max-frame-size} \"x\"", variables: ["port"])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
    }

    /// `frame TYPE in 1 segment|record` names a type (or `type N`); a send's modifiers end a
    /// frame's fields, so a frame goes out in pieces as any send does.
    @Test func wireChecksNameAFrameTypeAndFramesSplitAsAnySend() throws {
        let statements = try Fixtures.statements("""
            connect h2://127.0.0.1:{port}/
            assert wire from peer frame settings in 1 segment
            assert wire from probe frame type 0x0b in 1 record
            send frame ping "12345678" split at 5 every 10ms
            """)
        guard case .assertWire(let settings) = statements[1].kind, case .assertWire(let unknown) = statements[2].kind,
              case .send(let ping) = statements[3].kind, case .http2(.frame(let frame)) = ping.data else {
            Issue.record("\(statements.map(\.kind))")
            return
        }
        #expect(settings.property == .frameInOneSegment(type: 0x4) && settings.readsPlaintext)
        #expect(unknown.property == .frameInOneSegment(type: 0x0b) && unknown.direction == .probe)
        #expect(ping.splitOffsets.map(\.literal) == [5] && ping.interval != nil)
        guard case .bytes(let payload) = frame.payload else { Issue.record("no payload"); return }
        #expect(payload.literalBytes == Array("12345678".utf8))
    }
}
