import Foundation
import Testing

/// `linechat serve --websocket --echo`, the WebSocket suite's default subject, judged by
/// tcpprobe's own WebSocket steps: each message back as it came, pings answered, closes
/// answered by RFC 6455's rules, and each breach of the framing closed with its code. The first
/// connection takes its URL from a variable, as the suite takes `--var url=…`.
@Suite struct LinechatEchoTests {
    static let scenario = """
        var port = free-port
        set timeout 2s
        spawn server "linechat serve --websocket --echo --port {port}" ready on 127.0.0.1:{port} within 10s
        var url = "ws://127.0.0.1:{port}/"
        connect a {url}
        a: send frame text ""
        a: expect text ""
        a: send binary hex"fe fe 00"
        a: expect binary hex"fe fe 00"
        a: send text "fragment1fragment2" in frames of 9
        a: expect text "fragment1fragment2"
        a: send frame ping hex"fe fe fe"
        a: expect pong hex"fe fe fe"
        a: send close 1000
        a: expect close 1000
        a: expect eof
        connect rsv ws://127.0.0.1:{port}/
        rsv: send frame text "Hello, world!" rsv1 on
        rsv: expect close 1002
        connect unmasked ws://127.0.0.1:{port}/
        unmasked: send frame text "x" mask off
        unmasked: expect close 1002
        connect opcode ws://127.0.0.1:{port}/
        opcode: send frame 3 ""
        opcode: expect close 1002
        connect control ws://127.0.0.1:{port}/
        control: send frame ping "fragment1" fin off
        control: send frame continuation "fragment2"
        control: expect close 1002
        connect orphan ws://127.0.0.1:{port}/
        orphan: send frame continuation "x"
        orphan: expect close 1002
        connect utf8 ws://127.0.0.1:{port}/
        utf8: send frame text hex"ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80 65 64 69 74 65 64"
        utf8: expect close 1007
        connect code ws://127.0.0.1:{port}/
        code: send close 3000 "ok"
        code: expect close 3000
        connect reserved ws://127.0.0.1:{port}/
        reserved: send frame close hex"03 ed"
        reserved: expect close 1002
        connect short ws://127.0.0.1:{port}/
        short: send frame close hex"03"
        short: expect close 1002
        connect reason ws://127.0.0.1:{port}/
        reason: send frame close hex"03 e8 ce ba ed a0 80"
        reason: expect close 1007
        """

    /// Runs `text` as a scenario file, verbosely.
    private func run(_ text: String) async throws -> (status: Int32, stdout: String, stderr: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-echo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("echo.scn")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let output = try await ProbeProcess.run(["run", "-v", file.path])
        return (output.status, output.stdout, output.stderr)
    }

    @Test func theEchoServerAnswersByTheRules() async throws {
        let output = try await run(Self.scenario)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("connection 'a': WebSocket upgrade done"), "\(output.stdout)")
    }

    /// A close frame that fails an expect stays for the next: `expect close 1002` after a
    /// `non-strict` text expect reads the frame the text expect found, not the FIN after it.
    @Test func aCloseFrameThatFailsAnExpectStaysForTheNext() async throws {
        let output = try await run("""
            var port = free-port
            spawn server "linechat serve --websocket --echo --port {port}" ready on 127.0.0.1:{port} within 10s
            connect ws://127.0.0.1:{port}/
            send frame text "x" rsv1 on
            non-strict {
              expect text "x"
            }
            non-strict {
              expect close 1000
            }
            expect close 1002
            """)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("non-strict: line 6 expect text \"x\": expected a text message \"x\", got close 1002"), "\(output.stdout)")
        #expect(output.stdout.contains("non-strict: line 9 expect close 1000: expected a close frame with code 1000, got close 1002"), "\(output.stdout)")
    }

    /// `expect close A or B or none`: any of the codes, or none, a close frame without a code or
    /// TCP's end without a frame; another code fails it.
    @Test func expectCloseTakesAnyOfItsCodesOrNone() async throws {
        let output = try await run("""
            var port = free-port
            set timeout 1s
            spawn server "linechat serve --websocket --echo --port {port}" ready on 127.0.0.1:{port} within 10s
            connect a ws://127.0.0.1:{port}/
            a: send frame close hex"03 ed"
            a: expect close 1000 or 1002
            connect b ws://127.0.0.1:{port}/
            b: send close 3000
            non-strict {
              b: expect close 1000 or 1001
            }
            b: expect close 1000 or 3000 or none
            connect c ws://127.0.0.1:{port}/
            c: send frame text "x" rsv1 on
            c: expect close 1002
            c: expect close 1000 or none
            """)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("non-strict: line 10 b: expect close 1000 or 1001: expected a close frame with code 1000 or 1001, got close 3000"), "\(output.stdout)")
        #expect(output.stdout.contains("connection 'c': got no close frame"), "\(output.stdout)")
    }

    /// `linechat echo-client URL`, the client suite's default subject: it upgrades, echoes text
    /// and binary (masked: the probe as a server refuses an unmasked frame), answers pings and the
    /// close, and fails the connection on a masked frame from the server.
    @Test func theEchoClientAnswersByTheRules() async throws {
        let output = try await run("""
            var port = free-port
            set timeout 2s
            listen l 127.0.0.1:{port}
            spawn a "linechat echo-client ws://127.0.0.1:{port}/chat"
            accept a on l websocket
            a: send text "fragment1fragment2" in frames of 9
            a: expect text "fragment1fragment2"
            a: send binary hex"fe 00"
            a: expect binary hex"fe 00"
            a: send ping "p"
            a: expect pong "p"
            a: send close 1000
            a: expect close 1000
            a: expect eof
            expect exit a code 0 within 2s
            spawn b "linechat echo-client ws://127.0.0.1:{port}/"
            accept b on l websocket
            b: send frame text "x" mask on
            b: expect close 1002
            """)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("WebSocket upgrade answered: GET /chat HTTP/1.1"), "\(output.stdout)")
    }

    /// Once the close handshake is done nothing more is sent: a send fails saying so, or with
    /// `set cut-off skip` is skipped, saying so in the log.
    @Test func aSendAfterTheCloseHandshakeFailsOrIsSkipped() async throws {
        let scenario = """
            var port = free-port
            spawn server "linechat serve --websocket --echo --port {port}" ready on 127.0.0.1:{port} within 10s
            connect ws://127.0.0.1:{port}/
            send close 1000
            expect close 1000
            send text "late"
            """
        let failed = try await run(scenario)
        #expect(failed.status == 1 && failed.stdout.contains("connection #1 is closed: its WebSocket close handshake is done"), "\(failed.stdout)")
        let skipped = try await run("set cut-off skip\n" + scenario)
        #expect(skipped.status == 0 && skipped.stdout.contains("not sent: connection #1 is closed: its WebSocket close handshake is done (set cut-off skip)"),
                "\(skipped.stdout)")
    }

    @Test func theEchoClientTakesWebSocketURLsOnly() async throws {
        let output = try await ProbeProcess.run(["echo-client", "http://127.0.0.1:1/"], executable: ProbeProcess.linechat)
        #expect(output.status == 1 && output.stderr.contains("expected a ws:// URL, got 'http://127.0.0.1:1/'"), "\(output.stderr)")
    }

    @Test func aURLWhoseAddressIsNotHostPortFailsTheConnect() async throws {
        let output = try await run("var url = \"ws://127.0.0.1:http/\"\nconnect {url}\n")
        #expect(output.status == 1 && output.stdout.contains("'{url}' gives 'ws://127.0.0.1:http/', whose address '127.0.0.1:http' is not HOST:PORT"),
                "\(output.stdout)")
    }

    @Test func echoGoesWithWebSocketOnly() async throws {
        let output = try await ProbeProcess.run(["serve", "--echo", "--port", "0"], executable: ProbeProcess.linechat)
        #expect(output.status != 0 && output.stderr.contains("--echo goes with --websocket"), "\(output.stderr)")
    }

    /// The echo server plants its own faults only, and they need it.
    @Test func echoFaultsGoWithEchoOnly() async throws {
        let chatFault = try await ProbeProcess.run(["serve", "--websocket", "--echo", "--fault", "ws-masked-frames", "--port", "0"], executable: ProbeProcess.linechat)
        #expect(chatFault.status != 0 && chatFault.stderr.contains("fault ws-masked-frames is the chat's, not the echo server's"), "\(chatFault.stderr)")
        let echoFault = try await ProbeProcess.run(["serve", "--websocket", "--fault", "ws-echo-empty-pong", "--port", "0"], executable: ProbeProcess.linechat)
        #expect(echoFault.status != 0 && echoFault.stderr.contains("fault ws-echo-empty-pong needs --echo"), "\(echoFault.stderr)")
    }
}
