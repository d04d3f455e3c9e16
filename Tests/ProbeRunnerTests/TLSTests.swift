import Foundation
import ProbeResults
import TestSupport
import Testing

/// TLS between the probe's own client and server, with certificates a test authority issues:
/// the handshake as part of the step, `assert tls`, failures that say why, mutual TLS, and
/// close_notify.
@Suite struct TLSTests {
    /// A folder with a test authority and its leaf certificates, removed after the test.
    final class Certificates {
        let directory: URL
        let authority: TestAuthority

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            authority = try TestAuthority(in: directory)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    @Test func aRoundTripBetweenTheProbesOwnClientAndServer() async throws {
        let result = try await ScenarioHarness.run("""
            set timeout 3s
            listen l 127.0.0.1:0 tls alpn "chat/1", "http/1.1"
            connect c 127.0.0.1:{l.port} tls ca "{l.cert}" alpn "chat/1"
            accept s on l
            c: send line "hello"
            s: expect line "hello"
            s: send line "world"
            c: expect line "world"
            c: assert tls version = 1.3
            c: assert tls alpn = "chat/1"
            c: assert tls cipher /^TLS_(AES|CHACHA20)/
            c: assert tls peer subject /CN=localhost/
            s: assert tls alpn = "chat/1"
            c: send "chunk" in chunks of 1
            s: expect "chunk"
            c: close
            s: expect eof
            c: assert tls version = 1.3
            """)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("in 5 writes") && $0.message.hasSuffix("in 5 TLS records") }, "\(result.log.map(\.message))")
        #expect(result.log.contains { $0.message.contains("TLS handshake done as client") && $0.message.contains("TLS 1.3") }, "\(result.log.map(\.message))")
        // A TLS 1.3 server's first data follows its session tickets, and its log says so once.
        let serverSends = result.log.filter { $0.message.hasPrefix("connection 's': sent ") }.map(\.message)
        #expect(serverSends.count == 1 && serverSends[0].hasSuffix("(with the session tickets a TLS 1.3 server sends before its first data)"), "\(serverSends)")
        // The run-time certificate's file lives as long as its listener.
        let listening = try #require(result.log.first { $0.message.contains("TLS with the certificate ") }).message
        let certificate = String(listening[listening.range(of: "TLS with the certificate ")!.upperBound...])
        #expect(certificate.hasSuffix(".pem") && !FileManager.default.fileExists(atPath: certificate), "\(certificate)")
        let wrong = try await ScenarioHarness.run("""
            listen l 127.0.0.1:0 tls
            connect c 127.0.0.1:{l.port} tls insecure version 1.2
            accept s on l
            c: assert tls cipher /ECDHE_ECDSA_WITH_(AES|CHACHA20)/
            c: assert tls version = 1.3
            """)
        wrong.expectFailure(line: 5, containing: "expected TLS version 1.3, but it is \"1.2\"")
        // `version` pins both ends: a 1.3 client does not settle for a 1.2 server, nor a 1.2
        // client for a 1.3 server.
        for (server, client) in [("1.2", "1.3"), ("1.3", "1.2")] {
            let apart = try await ScenarioHarness.run("""
                listen l 127.0.0.1:0 tls version \(server)
                connect c 127.0.0.1:{l.port} tls insecure version \(client) expect tls-failure
                accept s on l expect tls-failure
                """)
            apart.expectPassed()
        }
        // The server's hello read in many pieces, through a proxy that slices it: the cipher
        // suite (which BoringSSL does not tell) is still read from it.
        let sliced = try await ScenarioHarness.run("""
            listen l 127.0.0.1:0 tls
            proxy p 127.0.0.1:0 to 127.0.0.1:{l.port}
            p: slice 1..64 every 1ms downstream
            connect c 127.0.0.1:{p.port} tls insecure
            accept s on l
            c: assert tls cipher /^TLS_(AES|CHACHA20)/
            """)
        sliced.expectPassed()
    }

    /// The steps above the TLS layer work as over TCP: random payloads, a slow read (whole
    /// records at a time), a pause, paced chunks, silence and the peer's close, which the
    /// client answers at once with its own close_notify and FIN.
    @Test func stepsAboveTheLayerWorkUnchanged() async throws {
        let result = try await ScenarioHarness.run("""
            set timeout 3s
            listen l 127.0.0.1:0 tls
            connect c 127.0.0.1:{l.port} tls ca "{l.cert}"
            accept s on l
            s: send random 64KiB
            c: read slowly 1KiB every 10ms total 8KiB
            c: pause reading
            s: send line "x"
            sleep 50ms
            c: resume reading
            c: expect bytes 65536
            c: expect line "x"
            s: send line "bye" in chunks of 1 every 1ms
            c: expect line "bye"
            c: expect nothing for 50ms
            s: shutdown write
            c: expect eof
            s: expect eof
            """)
        result.expectPassed()
        // A record is the unit of a TLS read: the slow read lets whole records of 16 KiB through,
        // never a 1 KiB piece (how many depends on how soon they arrive).
        let slow = try #require(result.log.first { $0.message.contains("read slowly ") }).message
        let read = try #require(Int(slow.split(separator: " ").drop { $0 != "slowly" }.dropFirst().first ?? ""))
        #expect(read > 0 && read % 16384 == 0, "\(slow)")
        #expect(result.log.contains { $0.message.contains("sent 5 bytes \"bye\\r\\n\" in 5 writes") && $0.message.hasSuffix("in 5 TLS records") },
                "\(result.log.map(\.message))")
    }

    /// Each verification failure names its reason and the certificate; `expect tls-failure`
    /// passes on them and fails on a handshake that succeeds.
    @Test func handshakeFailuresSayWhy() async throws {
        let certificates = try Certificates()
        let authority = certificates.authority
        let good = try authority.issue("good")
        let expired = try authority.issue("expired", validFrom: Date() - 7200, until: Date() - 3600)
        let selfSigned = try authority.issue("self", selfSigned: true)
        let strangerCA = try TestAuthority(in: try Self.subfolder(of: certificates.directory), name: "stranger CA")
        let stranger = try strangerCA.issue("stranger")
        // The stranger's leaf sent with its root: the root, first refused, is the one named.
        let chain = certificates.directory.appendingPathComponent("stranger-chain.pem").path
        try (String(contentsOfFile: stranger.certificate, encoding: .utf8) + "\n" + String(contentsOfFile: strangerCA.rootPath, encoding: .utf8))
            .write(toFile: chain, atomically: true, encoding: .utf8)
        let cases: [(server: (certificate: String, key: String), client: String, reason: String)] = [
            (expired, "ca \"{ca}\"", "the certificate CN=localhost has expired"),
            (good, "ca \"{ca}\" sni \"chat.test\"", "the certificate names localhost and 127.0.0.1, not chat.test"),
            (selfSigned, "", "is self-signed and not trusted (trust it with ca \"FILE\", or skip verification with insecure)"),
            (stranger, "ca \"{ca}\"", "the certificate CN=localhost is issued by CN=stranger CA, which is not trusted"),
            ((chain, stranger.key), "ca \"{ca}\"", "the certificate CN=stranger CA is self-signed and not trusted"),
        ]
        for (server, client, reason) in cases {
            let variables = ["ca": authority.rootPath, "cert": server.certificate, "key": server.key]
            let failing = try await ScenarioHarness.run("""
                listen l 127.0.0.1:0 tls cert "{cert}" key "{key}"
                connect c 127.0.0.1:{l.port} tls \(client)
                """, variables: variables)
            failing.expectFailure(line: 2, containing: "TLS handshake failed: ", reason)
            let expected = try await ScenarioHarness.run("""
                listen l 127.0.0.1:0 tls cert "{cert}" key "{key}"
                connect c 127.0.0.1:{l.port} tls \(client) expect tls-failure
                accept s on l expect tls-failure
                """, variables: variables)
            expected.expectPassed()
            #expect(expected.log.contains { $0.message.contains("the TLS handshake failed as expected: the peer refused the handshake with the alert") })
        }
        let succeeded = try await ScenarioHarness.run("""
            listen l 127.0.0.1:0 tls cert "{cert}" key "{key}"
            connect c 127.0.0.1:{l.port} tls ca "{ca}" expect tls-failure
            """, variables: ["ca": authority.rootPath, "cert": good.certificate, "key": good.key])
        succeeded.expectFailure(line: 2, containing: "expected the TLS handshake to fail, but it succeeded: TLS 1.3")
    }

    /// A server with `client-ca` refuses a client without a certificate, and names the subject
    /// of one that shows its own.
    @Test func mutualTLS() async throws {
        let certificates = try Certificates()
        let authority = certificates.authority
        let server = try authority.issue("server")
        let client = try authority.issue("client", commonName: "probe-client")
        let variables = ["ca": authority.rootPath, "cert": server.certificate, "key": server.key,
                         "ccert": client.certificate, "ckey": client.key]
        let refused = try await ScenarioHarness.run("""
            listen l 127.0.0.1:0 tls cert "{cert}" key "{key}" client-ca "{ca}"
            connect c 127.0.0.1:{l.port} tls ca "{ca}" version 1.2 expect tls-failure
            accept s on l
            """, variables: variables)
        refused.expectFailure(line: 3, containing: "TLS handshake failed: the client sent no certificate, and this server requires one (client-ca)")
        #expect(refused.log.contains { $0.message.contains("failed as expected: the peer refused the handshake with the alert handshake_failure") }, "\(refused.log.map(\.message))")
        let mutual = try await ScenarioHarness.run("""
            listen l 127.0.0.1:0 tls cert "{cert}" key "{key}" client-ca "{ca}"
            connect c 127.0.0.1:{l.port} tls ca "{ca}" cert "{ccert}" key "{ckey}"
            accept s on l
            s: assert tls peer subject /CN=probe-client/
            c: send line "signed"
            s: expect line "signed"
            """, variables: variables)
        mutual.expectPassed()
    }

    /// A peer that answers the ClientHello with plain text, one that closes during the
    /// handshake, and one that never answers: each fails the connect within its timeout, saying which.
    @Test func hostilePeersFailTheHandshakeInTime() async throws {
        let garbage = try await TestPeer.start(.finAfter(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8)))
        defer { Task { await garbage.stop() } }
        let answered = try await ScenarioHarness.run("connect 127.0.0.1:{port} tls insecure timeout 2s", against: garbage)
        // Its first 32 bytes, no more.
        answered.expectFailure(line: 1, containing: "the peer does not speak TLS: it answered \"HTTP/1.1 400 Bad Request\\r\\nConten\"")
        let closing = try await TestPeer.start(.finAfter([]))
        defer { Task { await closing.stop() } }
        let closed = try await ScenarioHarness.run("connect 127.0.0.1:{port} tls insecure timeout 2s", against: closing)
        // The peer closes as it accepts: the probe sees its FIN, or its RST for the ClientHello.
        closed.expectFailure(line: 1, containing: "TLS handshake failed: the peer ", "during the handshake")
        let silent = try await TestPeer.start(.silent)
        defer { Task { await silent.stop() } }
        let started = ContinuousClock.now
        let unanswered = try await ScenarioHarness.run("connect 127.0.0.1:{port} tls insecure timeout 300ms", against: silent)
        unanswered.expectFailure(line: 1, containing: "no TLS handshake within", "the peer sent nothing")
        #expect(ContinuousClock.now - started < .seconds(3))
        // A whole handshake record holding the first byte of a message, then nothing: a peer
        // that speaks TLS and stopped, not one that does not speak it.
        let stalled = try await TestPeer.start(.dribble([0x16, 0x03, 0x03, 0x00, 0x01, 0x02], interval: .milliseconds(1)))
        defer { Task { await stalled.stop() } }
        let stopped = try await ScenarioHarness.run("connect 127.0.0.1:{port} tls insecure timeout 300ms", against: stalled)
        stopped.expectFailure(line: 1, containing: "no TLS handshake within", "the peer stopped answering")
    }

    /// The probe's socket closes whole, below TLS too, however TLS ends: the probe's own
    /// `close`, and the TLS layer's close on bytes that are no TLS record, before and after the
    /// peer's close_notify was answered (which closes only the output). The STARTTLS peer then
    /// writes in the clear, and prints "reset" when the kernel answered with RST.
    @Test func theSocketClosesWholeHoweverTLSEnds() async throws {
        let folder = try Certificates()
        let server = try folder.authority.issue("server")
        for (ending, close) in [("probe_closes", "close\n"), ("garbage", ""), ("close_notify_garbage", "")] {
            let exchange = Self.startTLSExchange(ending: ending, server, ca: folder.authority.rootPath)
            let result = try await ScenarioHarness.run(exchange + close + #"expect stdout peer line "reset""#)
            #expect(result.failure == nil, "\(ending): \(result.failure?.message ?? "")")
        }
    }

    /// Over TLS `expect eof` wants close_notify and then FIN (close_notify alone is not the end
    /// yet); a bare FIN fails it and passes `expect close`; close_notify and then RST is a reset.
    /// The peer's close_notify is answered at once: Python's blocking `unwrap()` waits for the
    /// probe's before its FIN (10 s unanswered). `abort` resets without close_notify.
    @Test func closeNotifyAndTruncation() async throws {
        let certificates = try Certificates()
        let server = try certificates.authority.issue("server")
        let cases = [("close_notify", "eof", true), ("truncate", "eof", false), ("truncate", "close", true),
                     ("close_notify_late", "eof within 200ms", false), ("close_notify_late", "eof within 3s", true),
                     ("bidirectional", "eof within 2s", true), ("close_notify_rst", "eof", false), ("close_notify_rst", "close", true),
                     ("close_notify_rst", "reset", true)]
        for (ending, expectation, passes) in cases {
            let exchange = Self.startTLSExchange(ending: ending, server, ca: certificates.authority.rootPath)
            let result = try await ScenarioHarness.run(exchange + "expect \(expectation)")
            if passes {
                result.expectPassed()
            } else if ending == "truncate" {
                result.expectFailure(line: 10, containing: "the peer closed the connection without close_notify (FIN only: a truncation)")
            } else if ending == "close_notify_rst" {
                result.expectFailure(line: 10, containing: "reset")
            } else {
                result.expectFailure(line: 10, containing: "timed out")
            }
        }
        let aborted = try await ScenarioHarness.run("""
            listen l 127.0.0.1:0 tls
            connect c 127.0.0.1:{l.port} tls ca "{l.cert}"
            accept s on l
            c: abort
            s: expect reset
            """)
        aborted.expectPassed()
    }

    /// `starttls` in the server role: a client upgrades like SMTP, trusting the certificate the
    /// step names.
    @Test func startTLSAsTheServer() async throws {
        let certificates = try Certificates()
        let server = try certificates.authority.issue("server")
        let upgrade = """
            set timeout 5s
            listen l 127.0.0.1:0
            spawn client "python3 \(Self.peerScript) client {l.port} {ca}"
            accept s on l
            send line "220 probe.test ESMTP"
            expect line "STARTTLS"
            send line "220 ready"
            starttls cert "{cert}" key "{key}"

            """
        let variables = ["ca": certificates.authority.rootPath, "cert": server.certificate, "key": server.key]
        let anonymousClient = try await ScenarioHarness.run(upgrade + "assert tls peer subject //", variables: variables)
        anonymousClient.expectFailure(line: 9, containing: "expected TLS peer subject //, but it is none")
        let passing = try await ScenarioHarness.run(upgrade + """
            expect line "hello"
            send line "250 over TLS"
            expect stdout client line "220 probe.test ESMTP"
            expect stdout client line "220 ready"
            expect stdout client line "250 over TLS"
            expect exit client code 0
            """, variables: variables)
        passing.expectPassed()
    }

    /// After the peer's close_notify and FIN (or a bare FIN), the probe's own ending is what
    /// the scenario says, as over plain TCP: `abort` resets, `shutdown write` and `close` send
    /// FIN, and none fails because TLS already ended. The peer reads below TLS to the probe's
    /// end and prints what it was.
    @Test(arguments: ["close_notify", "bidirectional", "truncate"])
    func theProbesEndingAfterThePeersIsTheScenarios(_ ending: String) async throws {
        let certificates = try Certificates()
        let server = try certificates.authority.issue("server")
        let end = ending == "truncate" ? "expect close" : "expect eof within 2s"
        for (step, seen) in [("abort", "reset"), ("shutdown write", "fin"), ("close", "fin")] {
            let exchange = Self.startTLSExchange(ending: ending, server, ca: certificates.authority.rootPath)
            let result = try await ScenarioHarness.run(exchange + "\(end)\n\(step)\nexpect stdout peer line \"\(seen)\"")
            #expect(result.failure == nil, "\(ending), \(step): \(result.failure?.message ?? "")")
        }
    }

    /// A ServerHello that arrives split over two TLS records (TLS allows a handshake message in
    /// fragments) is still read: `assert tls version` and `cipher` know what it chose. A relay
    /// cuts the server's first record one byte in, in the middle and one byte before its end,
    /// under TLS 1.3 and 1.2.
    @Test func aServerHelloSplitOverTwoRecordsIsRead() async throws {
        let relay = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers/split_hello_relay.py").path
        var text = """
            set timeout 3s
            listen l 127.0.0.1:0 tls
            var rport = free-port
            spawn relay "python3 \(relay) {rport} {l.port} 1,40,-1,1,40,-1" ready on 127.0.0.1:{rport}

            """
        for (index, version) in ["1.3", "1.3", "1.3", "1.2", "1.2", "1.2"].enumerated() {
            text += """
                connect c\(index) 127.0.0.1:{rport} tls insecure version \(version)
                accept s\(index) on l
                c\(index): assert tls version = \(version)
                c\(index): assert tls cipher /\(version == "1.3" ? "^TLS_AES" : "^TLS_ECDHE_ECDSA")/

                """
        }
        try await ScenarioHarness.run(text).expectPassed()
    }

    /// The STARTTLS peer (Peers/starttls_peer.py) started with `ending`, its way of ending, and
    /// the exchange up to its first answer over TLS: nine lines a test goes on from.
    static func startTLSExchange(ending: String, _ server: (certificate: String, key: String), ca: String) -> String {
        """
        set timeout 5s
        spawn peer "python3 \(peerScript) server \(server.certificate) \(server.key) \(ending)" ready when stdout /^(?<pport>[0-9]+)$/ within 10s
        connect 127.0.0.1:{pport}
        expect line /^220 /
        send line "STARTTLS"
        expect line "220 ready"
        starttls ca "\(ca)" sni "localhost"
        send line "hi"
        expect line "250 over TLS: hi"

        """
    }

    static let peerScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers/starttls_peer.py").path

    static func subfolder(of directory: URL) throws -> URL {
        let folder = directory.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
