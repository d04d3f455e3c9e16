import Foundation
import ProbeResults
import TestSupport
import Testing

/// WebSocket (RFC 6455) against the Python websockets library as server and as client, and
/// between the probe's own client and server: messages both ways, fragments joined, pings and
/// pongs, close codes, and the rules a peer's frames must keep.
@Suite(.websockets) struct WebSocketTests {
    static let peer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers/websocket_peer.py").path

    @Test func theProbeAsClientOfAWebsocketsServer() async throws {
        let result = try await ScenarioHarness.run("""
            set timeout 5s
            spawn server "python3 \(Self.peer) server" ready when stdout /^(?<wport>[0-9]+)$/ within 10s
            connect c ws://127.0.0.1:{wport}/chat header "Origin: http://test"
            send text "hello"
            expect text "hello"
            send binary hex"00 01 02"
            expect binary hex"00 01 02"
            send text "fragment"
            expect text "fragmented"
            send ping "are you there"
            expect pong "are you there"
            send text "ping me"
            send text "after the ping"
            expect text "after the ping"
            set websocket auto-pong off
            send text "ping me"
            expect ping "are you there"
            send pong "are you there"
            set websocket auto-pong on
            send text "ping me"
            expect ping "are you there"
            send pong "are you there"
            send text "x" split at 2
            expect text contains "x"
            send text "hello world" in frames of 4
            expect text "hello world"
            send text "paced frames" in frames of 5 every 50ms
            expect text "paced frames"
            send text "at a rate" at 200B/s
            expect text "at a rate"
            send frame text "frag" fin off
            send frame continuation "ments"
            expect text "fragments"
            send text "bye"
            expect close 1000 reason /bye/
            expect eof
            """)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("WebSocket upgrade done: HTTP/1.1 101 Switching Protocols") }, "\(result.log.map(\.message))")
        #expect(result.log.contains { $0.message.contains("got text message \"fragmented\"") }, "\(result.log.map(\.message))")
        // `at RATE` paces the encoded frame: 15 bytes at 200 B/s, in writes of 10.
        #expect(result.log.contains { $0.message.contains("sent 15 bytes") && $0.message.contains(" in 2 writes: 10B@") && $0.message.hasSuffix("one frame: text fin 9 bytes masked") },
                "\(result.log.map(\.message))")
        // `in frames of N every D`: a write per frame, D apart.
        let paced = try #require(result.log.first { $0.message.contains(" in 3 writes: 11B@") }, "\(result.log.map(\.message))")
        #expect(paced.message.contains(" 8B@") && paced.message.hasSuffix("3 frames: text 5 bytes masked, continuation 5 bytes masked, continuation fin 2 bytes masked"), "\(paced.message)")
        let unmasked = try await ScenarioHarness.run("""
            set timeout 5s
            spawn server "python3 \(Self.peer) server" ready when stdout /^(?<wport>[0-9]+)$/ within 10s
            connect ws://127.0.0.1:{wport}/
            send frame text "hi" mask off
            expect close 1002
            """)
        unmasked.expectPassed()
    }

    /// `wss://`: TLS first, then the upgrade, verified against the test authority.
    @Test func overTLS() async throws {
        let certificates = try TLSTests.Certificates()
        let server = try certificates.authority.issue("server")
        let result = try await ScenarioHarness.run("""
            set timeout 5s
            spawn server "python3 \(Self.peer) server \(server.certificate) \(server.key)" ready when stdout /^(?<wport>[0-9]+)$/ within 10s
            connect wss://localhost:{wport}/secure tls ca "\(certificates.authority.rootPath)"
            assert tls version = 1.3
            send text "over TLS"
            expect text "over TLS"
            """)
        result.expectPassed()
    }

    @Test func aMessageOverTheServersMaxSizeIsClosedWith1009() async throws {
        let result = try await ScenarioHarness.run("""
            set timeout 5s
            spawn server "python3 \(Self.peer) server" ready when stdout /^(?<wport>[0-9]+)$/ within 10s
            connect ws://127.0.0.1:{wport}/
            send text "\(String(repeating: "x", count: 100))"
            expect close 1009
            """)
        result.expectPassed()
    }

    /// The probe as server of the websockets client, which has joined: its first two messages
    /// read. Python takes seconds to start on a busy machine: the accept waits up to 20 s.
    static let clientJoined = """
        listen l 127.0.0.1:0
        spawn client "python3 \(Self.peer) client {l.port}"
        accept s on l within 20s websocket protocol "chat.v1"
        expect text "hello"
        expect text "in three fragments"

        """

    /// As a server the probe closes TCP once the close handshake is done (RFC 6455 §7.1.1): the
    /// websockets client, which waits for the server's FIN (10 s, its close_timeout), exits at
    /// once (within 5 s, allowing a busy machine), and the probe reads on to the client's FIN.
    @Test func theProbeAsServerClosesTCPAfterTheCloseHandshake() async throws {
        let result = try await ScenarioHarness.run("set timeout 3s\n" + Self.clientJoined + """
            send text "done"
            expect close 1000 reason /done/
            expect eof
            expect exit client code 0 within 5s
            """)
        result.expectPassed()
    }

    @Test func theProbeAsServerOfAWebsocketsClient() async throws {
        let result = try await ScenarioHarness.run("set timeout 5s\n" + Self.clientJoined + """
            send text "one"
            expect stdout client line "one"
            send text "done" in chunks of 1
            expect stdout client line "done"
            expect close 1000 reason /done/
            close
            expect exit client code 0
            """)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("WebSocket upgrade answered: GET /chat HTTP/1.1, protocol chat.v1") }, "\(result.log.map(\.message))")
    }

    /// A text message longer than `RegexSearch.inlineLimit` is judged by its regex on a search
    /// thread, as a line is: its groups set variables.
    @Test func aLongTextMessageIsJudgedByItsRegex() async throws {
        let long = String(repeating: "x", count: 2000)
        let frame = "817e07d3" + Array("\(long) 42".utf8).map { String(format: "%02x", $0) }.joined()
        let result = try await ScenarioHarness.run("""
            set timeout 5s
            spawn server "python3 \(Self.peer) raw-server \(frame)" ready when stdout /^(?<wport>[0-9]+)$/ within 10s
            connect ws://127.0.0.1:{wport}/
            expect text /^(?<name>x+) (?<size>\\d+)$/
            """)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("{size}=\"42\"") && $0.message.contains("{name}=\"\(long)\"") }, "\(result.log.map(\.message))")
    }

    /// Hostile servers end in bounded failures: a flood of pings whose pongs it never reads
    /// stops the auto-pong once the socket's send buffer is full (not a pile of pongs in
    /// memory), and endless continuation frames end at max-message. The buffers are small
    /// (4 KiB each way, no autotuning): some 600 pongs fill them and NIO's 64 KiB of unsent
    /// bytes, which a debug build on a machine loaded to 6 on 2 cores answers well within the
    /// timeout, where 4 MiB of autotuned loopback buffers took more than 10 s.
    @Test(.timed) func floodsEndInBoundedFailures() async throws {
        let ping = "897d" + String(repeating: "00", count: 125)
        let flood = try await ScenarioHarness.run("""
            set timeout 10s
            spawn server "python3 \(Self.peer) raw-server '' \(ping) 20000" ready when stdout /^(?<wport>[0-9]+)$/ within 10s
            connect ws://127.0.0.1:{wport}/ sndbuf 4KiB
            expect text any
            """)
        flood.expectFailure(line: 4, containing: "the peer sends pings but does not read the pongs: auto-pong stopped with the socket's send buffer full")
        let endless = try await ScenarioHarness.run("""
            set timeout 5s
            set max-message 1KiB
            spawn server "python3 \(Self.peer) raw-server 010161 000161 5000" ready when stdout /^(?<wport>[0-9]+)$/ within 10s
            connect ws://127.0.0.1:{wport}/
            expect text any
            """)
        endless.expectFailure(line: 5, containing: "a fragmented message over max-message 1024 bytes (set max-message)")
    }

    /// The probe's server `s`, upgraded by a client `c` that writes the upgrade by hand (six lines).
    static let upgradedByHand = #"""
        set timeout 2s
        listen l 127.0.0.1:0
        connect c 127.0.0.1:{l.port}
        c: send "GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        accept s on l websocket
        c: expect until "\r\n\r\n" max 1KiB

        """#

    /// A close frame with no code: `expect close 1000` fails on it, `expect close any` and
    /// `expect close` pass. A text message whose two-byte character is split across two
    /// fragments is valid UTF-8 as a whole, and passes.
    @Test func closeWithoutACodeAndACharacterSplitAcrossFragments() async throws {
        func serving(_ raw: String, _ expectation: String) async throws -> ScenarioResult {
            try await ScenarioHarness.run("""
                set timeout 2s
                spawn server "python3 \(Self.peer) raw-server '\(raw.replacingOccurrences(of: " ", with: ""))'" ready when stdout /^(?<wport>[0-9]+)$/ within 10s
                connect ws://127.0.0.1:{wport}/
                \(expectation)
                """)
        }
        try await serving("88 00", "expect close 1000").expectFailure(line: 4, containing: "expected a close frame with code 1000, got close (no code)")
        try await serving("88 00", "expect close any").expectPassed()
        try await serving("88 00", "expect close").expectPassed()
        // "é" is c3 a9: the first fragment ends with c3, the continuation begins with a9.
        try await serving("01 02 63 c3 80 02 a9 21", "expect text \"c\u{e9}!\"").expectPassed()
        try await serving("01 02 63 c3 80 01 21", "expect text any").expectFailure(line: 4, containing: "a text message that is not valid UTF-8")
    }

    /// The probe answers a close frame once: a peer that sends two gets one close back, and
    /// after the probe's own close the peer's close is not answered.
    @Test func theProbeSendsOneCloseFrame() async throws {
        for steps in ["expect close 1000\nexpect close 1000", "send close 1000\nexpect close 1000\nexpect close 1000"] {
            let result = try await ScenarioHarness.run("""
                set timeout 5s
                spawn server "python3 \(Self.peer) raw-reader 880203e8880203e8" ready when stdout /^(?<wport>[0-9]+)$/ within 10s
                connect ws://127.0.0.1:{wport}/
                \(steps)
                close
                expect stdout server line "received opcodes: 8"
                """)
            result.expectPassed()
        }
    }

    /// `expect binary bytes N` takes a binary message of exactly N bytes.
    @Test func aBinaryMessageOfALength() async throws {
        let steps = Self.upgradedByHand + #"c: send hex"82 83 00 00 00 00 01 02 03""# + "\n"
        try await ScenarioHarness.run(steps + "s: expect binary bytes 3").expectPassed()
        try await ScenarioHarness.run(steps + "s: expect binary bytes 4")
            .expectFailure(line: 8, containing: "expected a binary message of 4 bytes, got binary")
    }

    /// `max-message` bounds WebSocket messages too: exactly max-message bytes pass, one more
    /// fails, in one frame or fragmented (a fragmented message counts its fragments together).
    @Test func maxMessageIsInclusiveOverWebSocket() async throws {
        let frames: [(hex: String, failure: String?)] = [
            ("81 85 00 00 00 00 31 32 33 34 35", nil),
            ("81 86 00 00 00 00 31 32 33 34 35 36", "a frame over max-message"),
            ("01 83 00 00 00 00 31 32 33 80 82 00 00 00 00 34 35", nil),
            ("01 83 00 00 00 00 31 32 33 80 83 00 00 00 00 34 35 36", "a fragmented message over max-message 5 bytes"),
        ]
        for (hex, failure) in frames {
            let result = try await ScenarioHarness.run("set max-message 5\n" + Self.upgradedByHand + """
                c: send hex"\(hex)"
                s: expect text \(failure == nil ? "contains \"12345\"" : "any")
                """)
            if let failure {
                result.expectFailure(line: 9, containing: failure)
            } else {
                result.expectPassed()
            }
        }
    }

    /// A ping that comes after the probe sent its close frame is answered as any other (a pong
    /// is a control frame, which may follow a close: RFC 6455 §5.5.1), not taken for a flood;
    /// the peer's close that follows passes `expect close`.
    @Test func aPingAfterTheProbesCloseIsNoFlood() async throws {
        let result = try await ScenarioHarness.run(Self.upgradedByHand + """
            s: send close 1000
            c: expect hex"88 02 03 e8"
            c: send hex"89 80 00 00 00 00 88 82 00 00 00 00 03 e8"
            s: expect close 1000
            """)
        result.expectPassed()
    }

    /// `??` takes any byte of an expected binary message, and of a ping's payload.
    @Test func anyByteInAnExpectedBinaryMessage() async throws {
        let result = try await ScenarioHarness.run(Self.upgradedByHand + """
            c: send hex"82 83 00 00 00 00 01 02 03"
            s: expect binary hex"01 ?? 03"
            c: send hex"89 82 00 00 00 00 07 08"
            set websocket auto-pong off
            s: expect ping hex"?? 08"
            c: send hex"82 82 00 00 00 00 01 02"
            s: expect binary hex"01 ?? 03"
            """)
        result.expectFailure(line: 13, containing: "expected binary: hex\"01 ?? 03\"\nreceived binary: hex\"01 02\"")
    }

    /// `expect close` passes when the peer closes TCP without a close frame, saying so; after
    /// the probe's own close there is nothing to wait for, and the step says so.
    @Test func expectCloseTakesThePeersTCPCloseWithoutAFrame() async throws {
        let finished = try await ScenarioHarness.run(Self.upgradedByHand + """
            c: close
            s: expect close
            """)
        finished.expectPassed()
        #expect(finished.log.contains { $0.message.contains("got no close frame: the peer closed the connection (FIN)") }, "\(finished.log.map(\.message))")
        let own = try await ScenarioHarness.run(Self.upgradedByHand + """
            s: close
            s: expect close
            """)
        own.expectFailure(line: 8, containing: "connection 's' was closed by the probe at test.scn:7")
    }

    /// A message of exactly a large max-message (over the 256 KiB the probe reads ahead
    /// unasked) is read whole: an expect waiting on it reads on until the frame and its longest
    /// header (14 bytes: masked, an 8-byte length) have arrived.
    @Test func aMessageOfALargeMaxMessageIsReadWhole() async throws {
        let result = try await ScenarioHarness.run("set max-message 1MiB\n" + Self.upgradedByHand + """
            c: send hex"82 ff 00 00 00 00 00 10 00 00 00 00 00 00"
            c: send random 1MiB
            s: expect binary bytes 1048576
            """)
        result.expectPassed()
    }

    /// A message decoded from the same read as the one an expect took, and never expected, is
    /// unread like bytes: noted, or under `set unread fail` a failure.
    @Test func aDecodedMessageNoExpectReadIsUnread() async throws {
        let steps = Self.upgradedByHand + """
            c: send hex"81 82 00 00 00 00 68 69 81 82 00 00 00 00 68 6f"
            s: expect text "hi"
            """
        let noted = try await ScenarioHarness.run(steps)
        noted.expectPassed()
        // No byte is left beside the message, so no bytes are shown.
        #expect(noted.notes.contains { $0 == "connection 's' had 1 WebSocket message decoded and not read (text \"ho\") when the scenario ended"
                    + " (no expect read them; `set unread fail` makes this a failure)" }, "\(noted.notes)")
        let failed = try await ScenarioHarness.run("set unread fail\n" + steps)
        failed.expectFailure(line: 9, containing: "connection 's' had 1 WebSocket message decoded and not read (text \"ho\")")
    }

    /// A split sweep over a frame sweeps its bytes, header included: the server's 4-byte frame
    /// is cut after each of its bytes 1 to 3 (the first cut inside the header), one run each.
    @Test func aSplitSweepCutsTheEncodedFrame() async throws {
        let result = try await ScenarioHarness.run(Self.upgradedByHand + """
            s: send text "hi" split sweep
            c: expect hex"81 02 68 69"
            """)
        result.expectPassed()
        let sweep = try #require(result.sweep)
        #expect(sweep.plan.messageLength == 4 && sweep.outcomes.map(\.offset) == [1, 2, 3] && sweep.outcomes.allSatisfy(\.passed), "\(sweep)")
    }

    /// Each rule of RFC 6455 the probe checks, broken by a raw frame, fails the expect that
    /// reads it and names the rule: frames a client sends the probe's server (after an upgrade
    /// written by hand), and frames a server sends the probe's client. A plain HTTP request or
    /// garbage sent to `accept … websocket` is answered 400 and fails the accept.
    @Test func violationsNameTheRuleTheyBreak() async throws {
        let upgraded = Self.upgradedByHand
        let fromClient: [(raw: String, failure: String)] = [
            ("81 02 68 69", "the client sent an unmasked frame (RFC 6455 §5.1: a client must mask every frame)"),
            ("89 02 68 69", "the client sent an unmasked frame"),
            ("88 02 03 e8", "the client sent an unmasked frame"),
            ("c1 82 00 00 00 00 68 69", "a frame with RSV1 set, and no extension agreed on (RFC 6455 §5.2)"),
            ("a1 82 00 00 00 00 68 69", "a frame with RSV2 set, and no extension agreed on (RFC 6455 §5.2)"),
            ("91 82 00 00 00 00 68 69", "a frame with RSV3 set, and no extension agreed on (RFC 6455 §5.2)"),
            ("83 82 00 00 00 00 68 69", "a frame with the reserved opcode"),
            ("80 82 00 00 00 00 68 69", "a continuation frame with no fragmented message to continue (RFC 6455 §5.4)"),
            ("81 82 00 00 00 00 ff fe", "a text message that is not valid UTF-8 (RFC 6455 §8.1)"),
            ("09 82 00 00 00 00 68 69", "a fragmented control frame"),
            ("01 81 00 00 00 00 61 02 81 00 00 00 00 62", "a new binary message began before the fragmented one ended (RFC 6455 §5.4)"),
        ]
        for (raw, message) in fromClient {
            let result = try await ScenarioHarness.run(upgraded + "c: send hex\"\(raw)\"\ns: expect text any")
            result.expectFailure(line: 8, containing: message)
        }
        let fromServer: [(raw: String, failure: String)] = [
            ("81 82 00 00 00 00 68 69", "the server sent a masked frame (RFC 6455 §5.1: a server must not mask its frames)"),
            ("89 82 00 00 00 00 68 69", "the server sent a masked frame"),
            ("8a 82 00 00 00 00 68 69", "the server sent a masked frame"),
            ("88 82 00 00 00 00 03 e8", "the server sent a masked frame"),
            ("89 7e 00 7e" + String(repeating: " 00", count: 126), "a control frame over 125 bytes (RFC 6455 §5.5)"),
            ("88 01 03", "a close frame of 1 byte"),
            ("88 04 03 e8 ff fe", "a close reason that is not UTF-8 (RFC 6455 §5.5.1)"),
            ("88 02 03 ed", "a close frame with the code 1005, which must never be sent"),
            ("88 02 03 ee", "a close frame with the code 1006, which must never be sent"),
            ("88 02 03 e7", "a close frame with the code 999, which must never be sent"),
            ("88 02 13 88", "a close frame with the code 5000, which must never be sent"),
        ]
        for (raw, message) in fromServer {
            let result = try await ScenarioHarness.run("""
                set timeout 5s
                spawn server "python3 \(Self.peer) raw-server '\(raw.replacingOccurrences(of: " ", with: ""))'" ready when stdout /^(?<wport>[0-9]+)$/ within 10s
                connect ws://127.0.0.1:{wport}/
                expect \(raw.hasPrefix("88 02") ? "close any" : "text any")
                """)
            result.expectFailure(line: 4, containing: message)
        }
        for (request, why) in [("GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n", "the request has no \"Upgrade: websocket\""),
                               ("\\x16\\x03\\x01\\x00\\x05hello\\r\\n\\r\\n", "not GET … HTTP/1.1")] {
            let result = try await ScenarioHarness.run("""
                set timeout 2s
                listen l 127.0.0.1:0
                connect c 127.0.0.1:{l.port}
                c: send "\(request)"
                accept s on l websocket
                c: expect line "HTTP/1.1 400 Bad Request"
                """)
            result.expectFailure(line: 5, containing: "not a WebSocket upgrade: ", why)
        }
    }
}
