import Foundation
import ProbeResults
@testable import ProbeRunner
import Testing
import TestSupport

/// HTTP/2 frames (`connect h2://`, `send frame`, `expect frame`, connection and stream errors)
/// against nghttpd, nghttp2's server: the handshake, a request answered, the background
/// answers, and the peer's errors named as the peer chose them.
@Suite(.serialized) struct HTTP2Tests {
    /// A document root with `index.html` ("hello ok"), as `{root}`.
    static func documentRoot() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-h2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try "hello ok\n".write(to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        return root.path
    }

    /// nghttpd in cleartext on a free port, and a connection to it (with `handshake` off, no preface).
    static func server(handshake: Bool = true) -> String {
        """
        set timeout 3s
        var port = free-port
        spawn server "nghttpd --no-tls -d {root} {port}" ready on 127.0.0.1:{port} within 10s
        \(handshake ? "" : "set http2 handshake off\n")connect h2://127.0.0.1:{port}/

        """
    }

    static let get = #"send frame headers 1 end-headers end-stream ":method"="GET" ":scheme"="http" ":path"="/index.html" ":authority"="x""#

    @Test(.nghttpd) func aRequestIsAnsweredWithHeadersAndData() async throws {
        let result = try await ScenarioHarness.run(Self.server() + Self.get + """

            expect frame headers 1 status 200 header "content-type"=/html/ header "content-length"="9"
            expect frame data 1 end-stream "hello ok\\n"
            send frame ping "12345678"
            expect frame ping ack "12345678"
            """, variables: ["root": try Self.documentRoot()])
        result.expectPassed()
        let log = result.log.map(\.message)
        #expect(log.contains { $0.contains("HTTP/2 (h2://127.0.0.1:") && $0.hasSuffix("/): SETTINGS exchanged") }, "\(log)")
        #expect(log.contains { $0.contains(", HEADERS stream 1 END_STREAM END_HEADERS") }, "\(log)")
        #expect(log.contains { $0.contains("got HEADERS stream 1 END_HEADERS · :status 200") }, "\(log)")
    }

    @Test(.nghttpd) func dataOnStreamZeroIsAConnectionErrorAndTheLogSaysGoaway() async throws {
        let result = try await ScenarioHarness.run(Self.server() + """
            send frame data 0 "x"
            expect connection error PROTOCOL_ERROR
            """, variables: ["root": try Self.documentRoot()])
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("the peer chose GOAWAY: GOAWAY · PROTOCOL_ERROR · last stream 0") }, "\(result.log.map(\.message))")
    }

    /// A GOAWAY with a code not asked for does not decide a connection error, as in h2spec:
    /// nghttpd's close after its GOAWAY PROTOCOL_ERROR passes it, and the log names the code.
    @Test(.nghttpd) func aCloseAfterAGoawayWithAnotherCodePassesNamingTheCode() async throws {
        let result = try await ScenarioHarness.run(Self.server() + """
            send frame data 0 "x"
            expect connection error FLOW_CONTROL_ERROR or FRAME_SIZE_ERROR
            """, variables: ["root": try Self.documentRoot()])
        result.expectPassed()
        #expect(result.log.contains {
            $0.message.contains("the peer chose to close: the peer closed the connection (FIN) after GOAWAY · PROTOCOL_ERROR · last stream 0")
                && $0.message.contains(", a code not asked for (the close passes, as in h2spec)")
        }, "\(result.log.map(\.message))")
    }

    /// A peer that sends GOAWAY with another code and stays open fails the step at its timeout,
    /// named; a RST_STREAM with another code likewise for a stream error.
    @Test func aGoawayWithAnotherCodeAndNoCloseFailsNamingIt() async throws {
        let scenario = """
            set timeout 300ms
            set http2 handshake off
            listen l 127.0.0.1:0
            connect c h2://127.0.0.1:{l.port}/
            accept s on l
            s: send hex"00 00 04 03 00 00 00 00 01 00 00 00 08 00 00 08 07 00 00 00 00 00 00 00 00 01 00 00 00 01"
            c: expect %@
            """
        let connection = try await ScenarioHarness.run(scenario.replacingOccurrences(of: "%@", with: "connection error FRAME_SIZE_ERROR"))
        connection.expectFailure(line: 7, containing: "timed out after 300ms waiting for a connection error: GOAWAY FRAME_SIZE_ERROR, or the connection closed; the peer sent GOAWAY · PROTOCOL_ERROR · last stream 1, a code not asked for")
        let stream = try await ScenarioHarness.run(scenario.replacingOccurrences(of: "%@", with: "stream error 1 FRAME_SIZE_ERROR"))
        stream.expectFailure(line: 7, containing: "the peer sent RST_STREAM stream 1 · CANCEL, a code not asked for; skipped 1 frame: GOAWAY · PROTOCOL_ERROR · last stream 1")
    }

    /// A second HEADERS on an open stream is a stream error (RST_STREAM); on a closed one a
    /// connection error, which `expect stream error` takes as h2spec does, saying which it was.
    @Test(.nghttpd) func aStreamErrorIsTakenInEitherFormAndTheLogSaysWhich() async throws {
        let open = #"send frame headers 1 end-headers ":method"="GET" ":scheme"="http" ":path"="/" ":authority"="x""#
        let result = try await ScenarioHarness.run(Self.server() + open + "\n" + Self.get + """

            expect stream error 1 PROTOCOL_ERROR
            connect h2://127.0.0.1:{port}/
            """ + "\n" + Self.get + "\nexpect frame data 1 end-stream\n" + Self.get + """

            expect stream error 1 STREAM_CLOSED
            """, variables: ["root": try Self.documentRoot()])
        result.expectPassed()
        let log = result.log.map(\.message)
        #expect(log.contains { $0.hasPrefix("connection #1: got the peer chose RST_STREAM: RST_STREAM stream 1 · PROTOCOL_ERROR") }, "\(log)")
        #expect(log.contains { $0.hasPrefix("connection #2: got the peer chose a connection error, GOAWAY: GOAWAY · STREAM_CLOSED · last stream 1") }, "\(log)")
    }

    @Test(.nghttpd) func aWrongStatusFailsNamingTheDecodedFrame() async throws {
        let result = try await ScenarioHarness.run(Self.server() + """
            send frame headers 1 end-headers end-stream ":method"="GET" ":scheme"="http" ":path"="/missing" ":authority"="x"
            expect frame headers 1 status 200
            """, variables: ["root": try Self.documentRoot()])
        result.expectFailure(line: 6, containing: "expected HEADERS stream 1 :status 200, got HEADERS stream 1 END_HEADERS · :status 404", ": :status 404")
        #expect(result.failure?.reason is ConnectionFailure)
    }

    /// Without the handshake the scenario writes the preface; the server's SETTINGS is acked in
    /// the background and skipped by an expect of the ACK of ours, and the log names it.
    @Test(.nghttpd) func framesOfOtherTypesAreSkippedAndNamed() async throws {
        let result = try await ScenarioHarness.run(Self.server(handshake: false) + """
            send preface
            send frame settings initial-window-size=65535 0x3=100
            expect frame settings ack
            """, variables: ["root": try Self.documentRoot()])
        result.expectPassed()
        let log = result.log.map(\.message)
        #expect(log.contains { $0.contains("sent 24 bytes") && $0.hasSuffix(", the preface") }, "\(log)")
        #expect(log.contains { $0.contains("SETTINGS · SETTINGS_INITIAL_WINDOW_SIZE=65535 SETTINGS_MAX_CONCURRENT_STREAMS=100") }, "\(log)")
        #expect(log.contains { $0.contains("got SETTINGS ACK") && $0.contains("; skipped 1 frame: SETTINGS") && $0.contains("(acked)") }, "\(log)")
    }

    /// `set http2 auto-ack off`: the server's SETTINGS comes to the expect unanswered.
    @Test(.nghttpd) func autoAckOffLeavesTheSettingsUnanswered() async throws {
        let result = try await ScenarioHarness.run(Self.server(handshake: false) + """
            set http2 auto-ack off
            send preface
            send frame settings
            expect frame settings
            expect nothing for 100ms
            """, variables: ["root": try Self.documentRoot()])
        result.expectPassed()
        let got = result.log.map(\.message).first { $0.contains("got SETTINGS") }
        #expect(got.map { !$0.contains("(acked)") } == true, "\(String(describing: got))")
    }

    /// Frames that came and that no expect took are unread, as bytes are: named decoded in a
    /// note (at the end or at the connection's close), a failure under `set unread fail`;
    /// frames an expect took are not, and a connection whose frames were all taken has no note.
    @Test(.nghttpd) func framesNoExpectTookAreUnread() async throws {
        let root = try Self.documentRoot()
        let answered = Self.server() + Self.get + "\nexpect frame headers 1 status 200\n"
        let noted = try await ScenarioHarness.run(answered + "sleep 200ms", variables: ["root": root])
        noted.expectPassed()
        #expect(noted.notes.count == 1 && noted.notes[0].hasPrefix("connection #1 had 1 HTTP/2 frame decoded and not read (DATA stream 1 END_STREAM · 9 bytes) when the scenario ended")
                    && noted.notes[0].hasSuffix("(no expect read them; `set unread fail` makes this a failure)"), "\(noted.notes)")
        let closed = try await ScenarioHarness.run(answered + "sleep 200ms\nclose", variables: ["root": root])
        #expect(closed.notes.contains { $0.contains("had 1 HTTP/2 frame decoded and not read (DATA stream 1 END_STREAM · 9 bytes) when it was closed") }, "\(closed.notes)")
        let failed = try await ScenarioHarness.run("set unread fail\n" + answered + "sleep 200ms", variables: ["root": root])
        failed.expectFailure(line: 8, containing: "connection #1 had 1 HTTP/2 frame decoded and not read (DATA stream 1 END_STREAM · 9 bytes) when the scenario ended")
        let allTaken = try await ScenarioHarness.run("set unread fail\n" + answered + "expect frame data 1 end-stream\nsleep 200ms", variables: ["root": root])
        allTaken.expectPassed()
        #expect(allTaken.notes.isEmpty, "\(allTaken.notes)")
    }

    /// The copies of a `parallel` block keep no notes of their own: the block's one note counts
    /// the frames they left unread, as it counts bytes.
    @Test(.nghttpd) func framesCopiesLeftUnreadAreCountedInTheBlocksNote() async throws {
        let result = try await ScenarioHarness.run("""
            set timeout 3s
            var port = free-port
            spawn server "nghttpd --no-tls -d {root} {port}" ready on 127.0.0.1:{port} within 10s
            parallel 3 {
              connect h2://127.0.0.1:{port}/
              \(Self.get)
              expect frame headers 1 status 200
              sleep 200ms
            }
            """, variables: ["root": try Self.documentRoot()])
        result.expectPassed()
        #expect(result.notes.contains { $0.contains("parallel 3: 3 of 3 copies left 1 HTTP/2 frame unread (the first: DATA stream 1 END_STREAM · 9 bytes)") },
                "\(result.notes)")
    }

    /// The frames of a header block the peer has not ended (a HEADERS without END_HEADERS and
    /// no CONTINUATION yet) are unread too, said so.
    @Test func aHeaderBlockNotEndedIsUnread() async throws {
        let result = try await ScenarioHarness.run("""
            set timeout 5s
            set unread fail
            listen l 127.0.0.1:0
            connect c 127.0.0.1:{l.port}
            c: send "PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n"
            c: send hex"00 00 00 04 00 00 00 00 00  00 00 00 04 01 00 00 00 00  00 00 01 01 00 00 00 00 01 82"
            accept s on l http2
            c: expect hex"00 00 06 04 00 00 00 00 00 00 04 00 00 ff ff  00 00 00 04 01 00 00 00 00"   # its SETTINGS and ACK
            sleep 100ms
            """)
        result.expectFailure(line: 9, containing: "connection 's' had 1 HTTP/2 frame decoded and not read (HEADERS stream 1 (its header block not ended yet)) when the scenario ended")
    }

    /// `accept … http2`: the probe as the server of curl, in cleartext with prior knowledge and
    /// over TLS with ALPN h2; the request that comes with the client's SETTINGS is kept for the
    /// expect after the handshake.
    @Test(.curl) func theProbeServesCurlAsAnHTTP2Server() async throws {
        for (listen, url) in [("127.0.0.1:0", "--http2-prior-knowledge http://"), (#"127.0.0.1:0 tls alpn "h2""#, "--http2 --cacert {l.cert} https://")] {
            let result = try await ScenarioHarness.run("""
                set timeout 5s
                listen l \(listen)
                spawn client "curl -sS \(url)127.0.0.1:{l.port}/hello"
                accept s on l within 10s http2
                expect frame headers 1 end-stream header ":method"="GET" header ":path"="/hello"
                send frame headers 1 end-headers ":status"="200" "content-type"="text/plain"
                send frame data 1 end-stream "served over HTTP/2\\n"
                expect stdout client line "served over HTTP/2"
                expect exit client code 0
                """)
            result.expectPassed()
            let log = result.log.map(\.message)
            #expect(log.contains { $0.hasSuffix("connection 's': HTTP/2 (as the server): SETTINGS exchanged") }, "\(log)")
            #expect(log.contains { $0.contains("got HEADERS stream 1 END_STREAM END_HEADERS · :method GET · :path /hello") }, "\(log)")
        }
    }

    /// A client whose first bytes are not HTTP/2's preface fails the accept at once, naming the
    /// 24 the preface would take, or the fewer that came.
    @Test func aClientPrefaceThatIsNotHTTP2sFailsTheAccept() async throws {
        for (request, shown) in [("GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n", "GET / HTTP/1.1\\r\\nHost: x\\r"), ("GET / HTTP/1.0\\r\\n\\r\\n", "GET / HTTP/1.0\\r\\n\\r\\n")] {
            let result = try await ScenarioHarness.run("""
                set timeout 5s
                listen l 127.0.0.1:0
                connect c 127.0.0.1:{l.port}
                c: send "\(request)"
                accept s on l http2
                """)
            result.expectFailure(line: 5, containing: "expected the peer's SETTINGS and the ACK of ours, got a connection preface that is not HTTP/2's: \"\(shown)\"")
            #expect(result.duration < .seconds(3), "failed at once, not at the timeout: \(result.duration)")
        }
    }

    @Test(.nghttpd, .openssl) func h2sSpeaksHTTP2OverTLSWithALPN() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-h2s-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (certificate, key) = try TestCertificate.make(in: folder)
        let result = try await ScenarioHarness.run("""
            set timeout 3s
            var port = free-port
            spawn server "nghttpd -d {root} {port} {key} {cert}" ready on 127.0.0.1:{port} within 10s
            connect h2s://127.0.0.1:{port}/ tls insecure
            assert tls alpn = "h2"
            send frame headers 1 end-headers end-stream ":method"="GET" ":scheme"="https" ":path"="/index.html" ":authority"="x"
            expect frame headers 1 status 200
            expect frame data 1 end-stream /ok/
            """, variables: ["root": try Self.documentRoot(), "cert": certificate, "key": key])
        result.expectPassed()
    }
}
