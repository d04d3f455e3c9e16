import Testing
@testable import ProbeScript

/// The WebSocket statements: `connect ws://…` with its options, `accept … websocket`, the
/// frame sends and expects, `expect close CODE` beside the TCP `expect close`.
@Suite struct WebSocketParserTests {
    @Test func expectCloseTakesAlternativeCodesOrNone() throws {
        let kinds = try Fixtures.statements("expect close 1002 or 1007 or none\nexpect close 1000 or {code} reason /bye/", variables: ["code"]).map(\.kind)
        guard case .expect(.webSocket(.close(let codes, let orNone, nil)), _) = kinds[0] else { Issue.record("\(kinds[0])"); return }
        #expect(codes.map(\.literal) == [1002, 1007] && orNone)
        guard case .expect(.webSocket(.close(let second, let secondNone, let reason)), _) = kinds[1] else { Issue.record("\(kinds[1])"); return }
        #expect(second.map(\.text) == ["1000", "{code}"] && !secondNone && reason?.pattern == "bye")
        #expect(!Fixtures.load("expect close 1000 or").diagnostics.isEmpty)
    }

    @Test func statementsParse() throws {
        let statements = try Fixtures.statements("""
            connect c ws://127.0.0.1:{port}/chat protocol "chat.v1" header "Origin: http://test" timeout 2s
            connect d wss://localhost:8443/ tls insecure
            listen l 127.0.0.1:0
            accept s on l websocket protocol "chat.v1"
            send text "hello" split at 2
            send binary hex"00 01"
            send ping
            send pong "x"
            send close 1000 "bye"
            expect text /^he/
            expect binary any
            expect binary bytes 2
            expect ping "x"
            expect pong
            expect close 1000 reason /bye/
            expect close any
            expect close
            set websocket auto-pong off
            """)
        let kinds = statements.map(\.kind)
        guard case .connect(let ws) = kinds[0], case .connect(let wss) = kinds[1] else { Issue.record("not connect"); return }
        #expect(ws.address.text == "127.0.0.1:{port}")
        #expect(ws.webSocket?.secure == false && ws.webSocket?.path == Template(literal: "/chat"))
        #expect(ws.webSocket?.protocols == [Template(literal: "chat.v1")] && ws.webSocket?.headers == [Template(literal: "Origin: http://test")])
        #expect(ws.timeout?.literal == .seconds(2))
        #expect(wss.webSocket?.secure == true && wss.address.literal == Address(host: "localhost", port: 8443) && wss.tls?.insecure == true)
        guard case .accept(_, _, _, _, let speaking) = kinds[3] else { Issue.record("not accept"); return }
        #expect(speaking == .webSocket([Template(literal: "chat.v1")]))
        guard case .send(let text) = kinds[4] else { Issue.record("not send"); return }
        #expect(text.data == .webSocket(.text(Template(literal: "hello"))) && text.splitOffsets.map(\.literal) == [2])
        #expect(kinds[6] == .send(SendStep(data: .webSocket(.ping(nil)))))
        guard case .send(let close) = kinds[8], case .webSocket(.close(let code, let reason)) = close.data else { Issue.record("not send close"); return }
        #expect(code?.literal == 1000 && reason == Template(literal: "bye"))
        #expect(kinds[10] == .expect(.webSocket(.binary(nil)), within: nil))
        #expect(kinds[13] == .expect(.webSocket(.pong(nil)), within: nil))
        guard case .expect(.webSocket(.close(let expectedCodes, let orNone, let expectedReason)), _) = kinds[14] else { Issue.record("not expect close"); return }
        #expect(expectedCodes.map(\.literal) == [1000] && !orNone && expectedReason?.pattern == "bye")
        #expect(kinds[15] == .expect(.webSocket(.close(codes: [], orNone: false, reason: nil)), within: nil))
        #expect(kinds[16] == .expect(.close, within: nil))
        #expect(kinds[17] == .set(.webSocketAutoPong(false)))
    }

    @Test func rawFramesAndFragments() throws {
        let statements = try Fixtures.statements("""
            send frame text "x" fin off mask off rsv1 on
            send frame 3
            send text "hello world" in frames of 4
            send binary hex"00 01 02" in frames of 1 every 10ms
            """)
        guard case .send(let raw) = statements[0].kind, case .webSocket(.frame(let frame)) = raw.data else { Issue.record("not frame"); return }
        #expect(frame.opcode == 1 && !frame.fin && frame.mask == false && frame.rsv1 && !frame.rsv2 && frame.data == Template(literal: "x"))
        guard case .send(let reserved) = statements[1].kind, case .webSocket(.frame(let bare)) = reserved.data else { Issue.record("not frame"); return }
        #expect(bare.opcode == 3 && bare.fin && bare.mask == nil && bare.data == nil)
        guard case .send(let fragmented) = statements[2].kind else { Issue.record("not send"); return }
        #expect(fragmented.framesOf?.literal == 4)
        guard case .send(let paced) = statements[3].kind else { Issue.record("not send"); return }
        #expect(paced.framesOf?.literal == 1 && paced.interval != nil)
    }

    @Test func mistakesAreExplained() {
        let cases: [(String, String)] = [
            ("connect 127.0.0.1:80 protocol \"x\"", "'protocol' is a WebSocket option"),
            ("connect ws://nowhere/chat", "'nowhere' in 'ws://nowhere/chat' is not HOST:PORT"),
            ("set websocket auto-pong maybe", "expected one of 'on', 'off' after set websocket auto-pong"),
            ("send frame 16", "'16' is not an opcode"),
            ("send line \"x\" in frames of 2", "'in frames of' splits a WebSocket text or binary message"),
            ("send text \"x\" every 10ms", "'every' needs 'in chunks of N', 'split at', 'split sweep' or 'in frames of N' to space out"),
        ]
        for (text, message) in cases {
            let messages = Fixtures.load(text).diagnostics.map(\.message)
            #expect(messages.contains { $0.contains(message) }, "\(text): \(messages)")
        }
    }
}
