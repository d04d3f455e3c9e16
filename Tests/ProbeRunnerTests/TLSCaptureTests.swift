import Foundation
import NIOCore
import ProbeCapture
import ProbeHost
import ProbeResults
@testable import ProbeRunner
import ProbeScript
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The keys of TLS connections beside their capture: written 0600 next to a kept pcap, never
/// in the result, and enough for tshark to decrypt the pcap, for TLS 1.3 and 1.2.
@Suite(.serialized, .heavy, .root)
struct TLSCaptureTests {
    private func run(_ text: String, directory: String, recordWire: Bool = false) async throws -> ScenarioResult {
        try await ScenarioHarness.runCapturing(text, directory: directory, keep: .always, recordWire: recordWire)
    }

    @Test(.tshark, arguments: ["1.3", "1.2"]) func tsharkDecryptsAKeptPcapWithItsKeys(version: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-tls-pcap-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try await run("""
            set capture on
            listen l 127.0.0.1:0 tls
            connect c 127.0.0.1:{l.port} tls ca "{l.cert}" version \(version)
            accept s on l
            c: send line "hello over TLS"
            s: expect line "hello over TLS"
            s: send line "and back"
            c: expect line "and back"
            c: close
            s: expect eof
            """, directory: directory)
        result.expectPassed()
        let pcap = String(try #require(result.notes.first { $0.hasPrefix("pcap: ") }).dropFirst(6))
        let keys = String(try #require(result.notes.first { $0.hasPrefix("TLS keys: ") }).dropFirst(10))
        #expect(keys == String(pcap.dropLast(5)) + ".keys")
        var status = stat()
        #expect(stat(keys, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        let lines = try String(contentsOfFile: keys, encoding: .utf8).split(separator: "\n")
        let labels = Set(lines.compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(labels == (version == "1.3"
            ? ["CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_0", "SERVER_TRAFFIC_SECRET_0", "EXPORTER_SECRET"]
            : ["CLIENT_RANDOM"]), "\(labels)")
        // Both ends of the one connection log the same secrets: the file names each once per end.
        let secrets = lines.compactMap { $0.split(separator: " ").last.map(String.init) }
        #expect(!secrets.isEmpty)
        let reported = (result.log.map(\.message) + result.notes).joined(separator: "\n")
        #expect(!secrets.contains { reported.contains($0) }, "a secret reached the result")

        let decrypted = try Tshark.run(["-r", pcap, "-o", "tls.keylog_file:\(keys)", "-Y", "data", "-T", "fields", "-e", "data.data"])
        #expect(decrypted.split(separator: "\n").map(String.init) == [Self.hex("hello over TLS\r\n"), Self.hex("and back\r\n")], "\(decrypted)")
        let undecrypted = try Tshark.run(["-r", pcap, "-Y", "data", "-T", "fields", "-e", "data.data"])
        #expect(undecrypted.isEmpty, "without the keys tshark must see no plaintext: \(undecrypted)")

        // `tcpprobe show` reads the same: records by type, the application data decrypted.
        let segments = try PcapFile.segments(atPath: pcap)
        let shown = ConversationRenderer(keys: TLSKeyMaterial(lines: lines)).render(segments)
        #expect(shown.contains("TLS \(version) "), "\(shown)")
        #expect(shown.contains("decrypted with the key log"), "\(shown)")
        #expect(shown.contains("→ application-data 16 bytes \"hello over TLS\\r\\n\""), "\(shown)")
        #expect(shown.contains("← application-data 10 bytes \"and back\\r\\n\""), "\(shown)")
        #expect(shown.contains("handshake ServerHello"), "\(shown)")
        #expect(shown.contains("alert close_notify"), "\(shown)")
        #expect(shown.contains("    → \"hello over TLS\\r\\n\""), "\(shown)")
        let sealed = ConversationRenderer().render(segments)
        #expect(sealed.contains("not decrypted: no key log"), "\(sealed)")
        #expect(!sealed.contains("hello over TLS"), "\(sealed)")
    }

    /// tcpprobe's own decryption of `openssl s_server -crlf` conversations agrees with tshark's
    /// decryption of the same pcap and keys, record for record and byte for byte, in TLS 1.3 and
    /// 1.2 with each AEAD suite; and its wire checks see the server's CRLF in the plaintext.
    @Test(.tshark, .openssl, arguments: [
        ("1.3", "-ciphersuites TLS_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256"),
        ("1.3", "-ciphersuites TLS_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384"),
        ("1.3", "-ciphersuites TLS_CHACHA20_POLY1305_SHA256", "TLS_CHACHA20_POLY1305_SHA256"),
        // RFC 8446 5.4: records padded with zeros to 64-byte blocks after their content type.
        ("1.3", "-ciphersuites TLS_AES_128_GCM_SHA256 -record_padding 64", "TLS_AES_128_GCM_SHA256"),
        ("1.2", "-cipher ECDHE-ECDSA-AES128-GCM-SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"),
        ("1.2", "-cipher ECDHE-ECDSA-AES256-GCM-SHA384", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"),
        ("1.2", "-cipher ECDHE-ECDSA-CHACHA20-POLY1305", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"),
    ]) func decryptionAgreesWithTshark(version: String, serverOption: String, suite: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-tls-suite-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = try TestAuthority(in: directory)
        let server = try authority.issue("server")
        let port = try #require(FreePort.pick())
        let result = try await run("""
            set capture on
            set timeout 5s
            spawn server "openssl s_server -accept 127.0.0.1:\(port) -cert \(server.certificate) -key \(server.key) -crlf -quiet \(serverOption)" with stdin ready on 127.0.0.1:\(port) within 10s
            connect c 127.0.0.1:\(port) tls ca "\(authority.rootPath)" version \(version)
            send line "iam:Leia"
            expect stdout server line "iam:Leia"
            send "msg:" in chunks of 2
            send line "split"
            expect stdout server line "msg:split"
            input server line "pong"
            expect line "pong"
            input server line "two"
            expect line "two"
            assert tls cipher /^\(suite)$/
            assert wire from peer terminator crlf
            assert wire from peer lines unsplit
            assert wire from peer records = 2
            assert wire from probe records = 4
            assert wire from probe line "iam:Leia" in 1 record
            close
            """, directory: directory.path)
        result.expectPassed()
        let pcap = String(try #require(result.notes.first { $0.hasPrefix("pcap: ") }).dropFirst(6))
        let keys = String(try #require(result.notes.first { $0.hasPrefix("TLS keys: ") }).dropFirst(10))

        let segments = try PcapFile.packets(in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: pcap)))).compactMap(PacketDecoder.segment)
        let probePort = try #require(segments.first { $0.destinationPort == port }?.sourcePort)
        let trace = ConnectionTrace(segments: segments, probePort: probePort, peerPort: port)
        let keyLines = try String(contentsOfFile: keys, encoding: .utf8).split(separator: "\n").map(String.init)
        let conversation = TLSConversation(client: trace.fromProbe.stream, server: trace.fromPeer.stream, keys: TLSKeyMaterial(lines: keyLines))
        #expect(conversation.problem == nil, "\(conversation.problem ?? "")")
        #expect(conversation.version == (version == "1.3" ? 0x0304 : 0x0303))

        let rows = try Tshark.run(["-r", pcap, "-o", "tls.keylog_file:\(keys)", "-Y", "tls", "-T", "fields", "-E", "separator=;",
                                    "-e", "tcp.srcport", "-e", "tls.record.content_type", "-e", "data.data"]).split(separator: "\n")
        for (records, sender) in [(conversation.clientRecords, probePort), (conversation.serverRecords, port)] {
            let ours = records.filter { $0.contentType == .applicationData }
            let theirs = rows.map { $0.split(separator: ";", omittingEmptySubsequences: false).map(String.init) }.filter { $0.first == String(sender) }
            let theirCount = theirs.map { $0[1].split(separator: ",").filter { $0 == "23" }.count }.reduce(0, +)
            #expect(ours.count == theirCount, "port \(sender): tcpprobe opened \(ours.count) application data records, tshark \(theirCount)")
            let theirBytes = theirs.map { $0[2].split(separator: ",").joined() }.joined()
            #expect(ours.flatMap(\.plaintext).map { String(format: "%02x", $0) }.joined() == theirBytes, "port \(sender)")
            #expect(!theirBytes.isEmpty)
        }
        // `show` and `import` read the same plaintext, each record's content type read past any padding.
        let shown = ConversationRenderer(keys: TLSKeyMaterial(lines: keyLines)).render(segments)
        #expect(shown.contains("← application-data 6 bytes \"pong\\r\\n\""), "\(shown)")
        let imported = try CapturedConversation(segments: segments, keys: TLSKeyMaterial(lines: keyLines))
        #expect(imported.turns.filter { !$0.fromClient }.flatMap(\.bytes) == Array("pong\r\ntwo\r\n".utf8), "\(imported.turns)")
        // A secret one bit off, or one flipped byte on the wire: records that do not open, and
        // a problem that makes any judgement inconclusive, never plaintext to judge.
        let wrongKeys = TLSKeyMaterial(lines: keyLines.map { $0.dropLast() + ($0.last == "0" ? "1" : "0") })
        let undecryptable = TLSConversation(client: trace.fromProbe.stream, server: trace.fromPeer.stream, keys: wrongKeys)
        #expect(undecryptable.problem?.contains("did not decrypt with the logged keys") == true, "\(undecryptable.problem ?? "no problem")")
        #expect(!(undecryptable.clientRecords + undecryptable.serverRecords).contains { $0.contentType == .applicationData })
        var damaged = trace.fromPeer.stream
        let lastApplicationRecord = try #require(conversation.serverRecords.last { $0.contentType == .applicationData })
        damaged[lastApplicationRecord.streamRange.upperBound - 1] ^= 1
        let tampered = TLSConversation(client: trace.fromProbe.stream, server: damaged, keys: TLSKeyMaterial(lines: keyLines))
        #expect(tampered.problem?.hasPrefix("the server's record") == true, "\(tampered.problem ?? "no problem")")
        #expect(tampered.serverRecords.filter { $0.contentType == .applicationData }.count == 1)
    }

    /// Over TLS the line checks read the decrypted records: a line split across records fails
    /// with the records shown, a chunked send is verified as records and as segments, and after
    /// STARTTLS the plaintext before the upgrade is judged with the records after it.
    @Test func wireChecksReadTheDecryptedRecords() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-tls-wire-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let opening = """
            set capture on
            listen l 127.0.0.1:0 tls
            connect c 127.0.0.1:{l.port} tls ca "{l.cert}"
            accept s on l
            c: send "split line" in chunks of 3 every 2ms
            c: send "\\r\\n"
            s: expect line "split line"
            c: assert wire from probe records = 5
            c: assert wire from probe terminator crlf

            """
        let split = try await run(opening + "c: assert wire from probe lines unsplit", directory: directory.path)
        split.expectFailure(line: 10, containing: "wire from probe, decrypted: the line \"split line\\r\\n\" (12 bytes at offset 0) was split across 5 TLS records",
                            "records (times from the scenario's start):", "3 bytes  \"spl\"", "2 bytes  \"\\r\\n\"")
        let passed = try await run(opening + "s: assert wire from peer records = 5", directory: directory.path, recordWire: true)
        passed.expectPassed()
        // For the HTML ladder: the records among the segments, each at the time of the segment that completed it.
        let records = passed.wire.compactMap { event in event.unit.map { (event.fromProbe, $0) } }
        #expect(records.contains { $0 == (true, "TLS handshake ClientHello") } && records.contains { $0 == (false, "TLS handshake ServerHello") }, "\(records)")
        #expect(records.filter { $0.0 && $0.1.hasPrefix("TLS application-data ") }.map(\.1)
                == ["TLS application-data 3 bytes \"spl\"", "TLS application-data 3 bytes \"it \"", "TLS application-data 3 bytes \"lin\"",
                    "TLS application-data 1 bytes \"e\"", "TLS application-data 2 bytes \"\\r\\n\""], "\(records)")
        #expect(passed.wire.contains { $0.unit == nil && $0.flags.contains("SYN") })
        #expect(passed.notes.contains { $0.contains("all 4 writes left as separate TLS records") && $0.contains("those records as TCP segments: all 4 writes left as separate segments") },
                "\(passed.notes)")
        let plain = try await run("""
            set capture on
            listen l 127.0.0.1:0
            connect c 127.0.0.1:{l.port}
            accept s on l
            c: assert wire from probe records = 0
            """, directory: directory.path)
        plain.expectFailure(line: 5, containing: "records counts TLS records, and connection 'c' does not speak TLS")

        let authority = try TestAuthority(in: directory)
        let server = try authority.issue("server")
        /// The STARTTLS peer's exchange up to its close, which `ending` says how it makes.
        func exchange(ending: String) -> String {
            "set capture on\n" + TLSTests.startTLSExchange(ending: ending, server, ca: authority.rootPath) + "expect eof\n"
        }
        let startTLS = try await run(exchange(ending: "close_notify") + """
            assert wire from probe terminator crlf
            assert wire from peer line "250 over TLS: hi" in 1 record
            assert wire from peer records = 1
            assert wire from peer lines unsplit
            """, directory: directory.path)
        startTLS.expectPassed()
        #expect(startTLS.log.contains { $0.message.contains("wire from probe, decrypted: 2 lines, each ending in crlf") }, "\(startTLS.log.map(\.message))")

        // A server that sends close_notify and closes its socket at once (postfix): the probe's
        // answering close_notify meets a closed socket, whose kernel answers RST. That RST is
        // provoked, not the server's: `no rst` passes, naming it, and `rst` fails.
        let closing = exchange(ending: "close_notify_close") + """
            sleep 100ms
            assert wire from peer fin
            assert wire from peer no rst

            """
        let provoked = try await run(closing, directory: directory.path)
        provoked.expectPassed()
        #expect(provoked.log.contains { $0.message.contains("wire from peer: no RST was sent of its own (a RST not counted: provoked by the ") }, "\(provoked.log.map(\.message))")
        let owned = try await run(closing + "assert wire from peer rst", directory: directory.path)
        owned.expectFailure(line: 15, containing: "wire from peer: no RST was sent of its own")
    }

    /// `$SSLKEYLOGFILE` gets every line as it comes, in a file made 0600; the run keeps them
    /// only while it captures.
    @Test func theKeyLogAppendsToSSLKEYLOGFILE() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-keylog-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let keyLog = TLSKeyLog(environment: ["SSLKEYLOGFILE": path])
        keyLog.add(ByteBuffer(string: "CLIENT_RANDOM 00 11"))
        #expect(keyLog.isEmpty, "without a capture the lines are not kept")
        keyLog.keepLines()
        keyLog.add(ByteBuffer(string: "CLIENT_RANDOM 22 33\n"))
        #expect(keyLog.all == ["CLIENT_RANDOM 22 33"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "CLIENT_RANDOM 00 11\nCLIENT_RANDOM 22 33\n")
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
    }

    /// A client that sends STARTTLS and its ClientHello in one write: the probe's reader takes
    /// the hello with the command line, and `starttls` hands it to TLS. The messages framed after
    /// the upgrade are cut from where framing began in what the checks read (the 10 plaintext
    /// bytes of "STARTTLS\r\n", then the records), not counting the hello; cut from 0, or
    /// counting it, no message would be whole.
    @Test func messagesFramedAfterAPipelinedStartTLSAreCutWhereFramingBegan() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-tls-pipelined-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = try TestAuthority(in: directory)
        let server = try authority.issue("server")
        let result = try await run("""
            set timeout 5s
            set capture on
            listen l 127.0.0.1:0
            spawn client "python3 \(TLSTests.peerScript) pipelining {l.port} \(authority.rootPath)"
            accept s on l
            send line "220 probe.test ESMTP"
            expect line "STARTTLS"
            send line "220 ready"
            starttls cert "\(server.certificate)" key "\(server.key)"
            set framing length 2
            expect message "hello"
            expect message "world"
            expect stdout client line "220 ready"
            assert wire from peer messages unsplit
            close
            expect exit client code 0
            """, directory: directory.path)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("wire from peer, decrypted: 2 messages, none split across TLS records") },
                "\(result.log.map(\.message))")
    }

    static func hex(_ text: String) -> String {
        text.utf8.map { String(format: "%02x", $0) }.joined()
    }

}
