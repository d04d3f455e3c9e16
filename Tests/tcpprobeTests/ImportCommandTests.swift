import Foundation
import Glibc
import TestSupport
import Testing

/// `tcpprobe import`: a captured conversation becomes a scenario that reads like a hand-written
/// one, passes `check`, and replays against the same server; a capture of a planted fault,
/// replayed against the good server, fails on the difference. Captures from tcpdump and tshark
/// (pcap and pcapng) import alike. Root: capture.
@Suite(.serialized, .heavy, .root) struct ImportCommandTests {
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// A free port on 127.0.0.1, for a server the test starts.
    private func freePort() throws -> Int {
        let (fd, port) = try LoopbackSocket.bound(listening: false)
        close(fd)
        return port
    }

    /// Runs `scenario` (a path) with linechat serving on a fresh port as `{port}`, the way the
    /// imported scenario expects its server.
    private func replay(_ scenario: URL, fault: String = "") async throws -> ProbeProcess.Output {
        let port = try freePort()
        let wrapper = directory.appendingPathComponent("replay-\(UUID().uuidString).scn")
        try """
            spawn server "linechat serve --port {port} \(fault)" ready on 127.0.0.1:{port} within 10s
            include "\(scenario.lastPathComponent)"
            """.write(to: wrapper, atomically: true, encoding: .utf8)
        return try await ProbeProcess.run(["run", "--var", "port=\(port)", wrapper.path])
    }

    /// Runs `scenario` (a path) capturing, keeps its pcap, and imports it with `options`.
    private func captureAndImport(_ scenario: URL, _ options: String..., sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> ProbeProcess.Output {
        let pcaps = directory.appendingPathComponent("pcaps-\(UUID().uuidString)")
        let run = try await ProbeProcess.run(["run", "--capture", "--keep-pcap", "always", "--pcap-dir", pcaps.path, scenario.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)", sourceLocation: sourceLocation)
        let pcap = try #require(try FileManager.default.contentsOfDirectory(atPath: pcaps.path).first { $0.hasSuffix(".pcap") }, sourceLocation: sourceLocation)
        let imported = try await ProbeProcess.run(["import"] + options + [pcaps.appendingPathComponent(pcap).path])
        #expect(imported.status == 0, "\(imported.stderr)", sourceLocation: sourceLocation)
        return imported
    }

    /// Waits, at most 10 s, until something accepts connections on 127.0.0.1:`port` (a server
    /// the test started), before the capture that must see its first SYN begins.
    private func waitForListener(_ port: Int) async throws {
        let listening = await Eventually.holds(every: .milliseconds(100)) { LoopbackSocket.listens(on: port) }
        #expect(listening, "nothing listens on 127.0.0.1:\(port) after 10 s")
    }

    /// redis-server on `port`, without persistence.
    private func startRedis(_ port: Int) async throws -> Process {
        let redis = Process()
        redis.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        redis.arguments = ["--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        redis.standardOutput = FileHandle.nullDevice
        try redis.run()
        try await waitForListener(port)
        return redis
    }

    /// tcpdump's capture of `port` on lo, to `pcap`, while `body` runs, from a little after it
    /// says it listens (-U writes each packet as it comes; SIGKILL ends it, as this process may
    /// hand its children SIGINT blocked).
    private func capturing(_ port: Int, to pcap: URL, _ body: () async throws -> Void) async throws {
        let tcpdump = Process()
        tcpdump.executableURL = URL(fileURLWithPath: try #require(Requirement.tcpdump.path))
        tcpdump.arguments = ["-i", "lo", "-U", "-w", pcap.path, "tcp port \(port)"]
        let status = Pipe()
        tcpdump.standardError = status
        try tcpdump.run()
        defer {
            if tcpdump.isRunning { kill(tcpdump.processIdentifier, SIGKILL) }
            tcpdump.waitUntilExit()
        }
        // It says "listening on lo" once capturing; until then a SYN could go unseen. Reading
        // ends at that line, or at tcpdump's exit (an empty read).
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("listening on") {
            let chunk = status.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += chunk
        }
        #expect(String(decoding: said, as: UTF8.self).contains("listening on"), "tcpdump: \(String(decoding: said, as: UTF8.self))")
        // It says so a little before its first packets reach the file.
        try await Task.sleep(for: .milliseconds(800))
        try await body()
        // Its packets reach the file as tcpdump gets the CPU, later on a busy machine: wait
        // (at most 10 s) until the file has packets and has stopped growing for 500 ms (-U
        // writes each packet out as it comes), then stop it. SIGKILL: it inherits the test
        // thread's signal mask, in which SIGINT and SIGTERM are blocked.
        var size = -1, still = 0
        for _ in 0..<100 where still < 5 {
            try await Task.sleep(for: .milliseconds(100))
            let now = (try? FileManager.default.attributesOfItem(atPath: pcap.path)[.size] as? Int) ?? 0
            still = now > 24 && now == size ? still + 1 : 0
            size = now
        }
        kill(tcpdump.processIdentifier, SIGKILL)
        tcpdump.waitUntilExit()
    }

    /// The pcap a run of `Scenarios/NAME.scn` kept.
    private func capture(_ name: String, variables: [String] = []) async throws -> URL {
        let pcaps = directory.appendingPathComponent("pcaps-\(UUID().uuidString)")
        let scenario = ProbeProcess.fixtures.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenarios/\(name).scn")
        _ = try await ProbeProcess.run(["run", "--capture", "--keep-pcap", "always", "--pcap-dir", pcaps.path] + variables + [scenario.path])
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: pcaps.path).first { $0.hasSuffix(".pcap") })
        return pcaps.appendingPathComponent(file)
    }

    @Test func aLinechatConversationRoundTrips() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let pcap = try await capture("crlf")
        let imported = directory.appendingPathComponent("imported.scn")
        let written = try await ProbeProcess.run(["import", pcap.path, "-o", imported.path])
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOf: imported, encoding: .utf8)
        #expect(text.contains("send line \"iam:Luke\"\nexpect line \"Luke has joined\"\nsend line \"ping\"\nexpect line \"pong\"\nsend line \"quit\"\nexpect line \"bye\"\nexpect eof\n"), "\(text)")
        #expect(text.hasPrefix("# Imported by `tcpprobe import` from ") && !text.contains("hex\""), "\(text)")
        let checked = try await ProbeProcess.run(["check", imported.path])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        let replayed = try await replay(imported)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")

        // The server with LF-only replies, captured, imported and replayed against the good one.
        let faulty = try await capture("crlf", variables: ["--var", "fault=--fault lf-only"])
        let importedFault = directory.appendingPathComponent("imported-fault.scn")
        _ = try await ProbeProcess.run(["import", faulty.path, "-o", importedFault.path])
        let difference = try await replay(importedFault)
        #expect(difference.status == 1, "\(difference.stdout)")
        #expect(difference.stdout.contains("Luke has joined\\n") && difference.stdout.contains("first difference"), "\(difference.stdout)")
    }

    /// A TLS conversation whose keys lie beside the pcap imports as its plaintext, over `tls insecure`.
    @Test func aTLSCaptureWithKeysImportsDecrypted() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("tls.scn")
        try """
            set timeout 2s
            listen l 127.0.0.1:0 tls
            connect c 127.0.0.1:{l.port} tls ca "{l.cert}"
            accept s on l
            c: send line "hello over TLS"
            s: expect line "hello over TLS"
            s: send line "and back"
            c: expect line "and back"
            c: close
            s: expect eof
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let imported = try await captureAndImport(scenario)
        #expect(imported.stdout.contains("connect {host}:{port} tls insecure\nsend line \"hello over TLS\"\nexpect line \"and back\"\n"), "\(imported.stdout)")
    }

    /// A Python TLS client, trusting any certificate, written to the test's directory: `body`
    /// follows its imports and its context.
    private func pythonTLSClient(_ body: String) throws -> URL {
        let client = directory.appendingPathComponent("client.py")
        try ("""
            import socket, ssl, sys, time
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE

            """ + body).write(to: client, atomically: true, encoding: .utf8)
        return client
    }

    /// Over TLS a side's close_notify is its close: a client that sent close_notify and its FIN
    /// only after the server's FIN (the server closed on the client's close_notify) imports as
    /// `shutdown write` then `expect eof`, not the reverse, which would wait on replay for a FIN
    /// the server sends only once the client has closed.
    @Test func aClientsCloseNotifyIsItsCloseWhereverItsFINComes() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = try pythonTLSClient("""
            secure = context.wrap_socket(socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5))
            secure.sendall(b"hello\\r\\n")
            secure.recv(64)
            secure.setblocking(False)
            try:
                secure.unwrap()  # close_notify, without waiting for the server's
            except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
                pass
            time.sleep(0.4)
            socket.socket.close(secure)  # the FIN, after the server's
            """)
        let scenario = directory.appendingPathComponent("server.scn")
        try """
            set timeout 5s
            listen l 127.0.0.1:0 tls
            spawn client "python3 \(client.path) {l.port}"
            accept s on l
            s: expect line "hello"
            s: send line "bye"
            sleep 150ms
            s: close
            expect exit client code 0
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let imported = try await captureAndImport(scenario)
        #expect(imported.stdout.hasSuffix("send line \"hello\"\nexpect line \"bye\"\nshutdown write\nexpect eof\n"), "\(imported.stdout)")
    }

    /// Only the client speaks in the clear before TLS (a PROXY protocol header, then its
    /// ClientHello): the import writes the header, then `starttls` where the hello began, in
    /// one segment with the header (corked) or in a segment of its own.
    @Test(arguments: [true, false]) func aClientsPlaintextPrefaceImportsBeforeItsStartTLS(corked: Bool) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = try pythonTLSClient("""
            plain = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
            if sys.argv[2] == "corked":
                plain.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)
            plain.sendall(b"PROXY TCP4 192.0.2.1 198.51.100.2 5000 443\\r\\n")
            secure = context.wrap_socket(plain, do_handshake_on_connect=False)
            secure.setblocking(False)
            try:
                secure.do_handshake()  # the ClientHello, into the cork
            except ssl.SSLWantReadError:
                pass
            secure.setblocking(True)
            secure.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 0)
            secure.do_handshake()
            secure.sendall(b"hi\\r\\n")
            secure.recv(64)
            secure.close()
            """)
        let scenario = directory.appendingPathComponent("server.scn")
        try """
            set timeout 5s
            listen l 127.0.0.1:0
            spawn client "python3 \(client.path) {l.port} \(corked ? "corked" : "apart")"
            accept s on l
            s: expect line "PROXY TCP4 192.0.2.1 198.51.100.2 5000 443"
            s: starttls
            s: expect line "hi"
            s: send line "yo"
            expect exit client code 0
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let imported = try await captureAndImport(scenario)
        #expect(imported.stdout.contains("""
            connect {host}:{port}
            send line "PROXY TCP4 192.0.2.1 198.51.100.2 5000 443"
            starttls insecure
            send line "hi"
            expect line "yo"

            """), "\(imported.stdout)")
    }

    /// A conversation that turns into TLS midway (STARTTLS) imports as its plaintext part, a
    /// `starttls insecure` where the client's hello began, then the decrypted part; the written
    /// scenario replays against the same kind of server.
    @Test func aStartTLSCaptureImportsThePlaintextThenStartTLS() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let peer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../ProbeRunnerTests/Peers/starttls_peer.py").standardized.path
        let (certificate, key) = try TestCertificate.make(in: directory)
        let spawn = "spawn peer \"python3 \(peer) server \(certificate) \(key) close_notify {port}\" ready on 127.0.0.1:{port} within 10s"
        let scenario = directory.appendingPathComponent("starttls.scn")
        try """
            set timeout 5s
            var port = free-port
            \(spawn)
            connect 127.0.0.1:{port}
            expect line /^220 /
            send line "STARTTLS"
            expect line "220 ready"
            starttls insecure
            send line "hi"
            expect line "250 over TLS: hi"
            expect eof
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let imported = try await captureAndImport(scenario)
        #expect(imported.stdout.contains("""
            connect {host}:{port}
            expect line "220 peer.test ESMTP"
            send line "STARTTLS"
            expect line "220 ready"
            starttls insecure
            send line "hi"
            expect line "250 over TLS: hi"

            """), "\(imported.stdout)")
        let written = directory.appendingPathComponent("imported.scn")
        try imported.stdout.write(to: written, atomically: true, encoding: .utf8)
        let wrapper = directory.appendingPathComponent("replay.scn")
        try "\(spawn)\ninclude \"imported.scn\"\n".write(to: wrapper, atomically: true, encoding: .utf8)
        let replayed = try await ProbeProcess.run(["run", "--var", "port=\(try freePort())", wrapper.path])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
    }

    /// `import --as server` writes the other side: the probe listens where the server was (its
    /// address the defaults of `var host` and `var port`) and plays it, and the written
    /// scenario passes against the real client, linechat's.
    @Test func importedAsServerItReplaysAgainstTheRealClient() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("client.scn")
        try """
            set timeout 3s
            var port = free-port
            spawn server "linechat serve --port {port}" ready on 127.0.0.1:{port} within 10s
            spawn client "linechat connect 127.0.0.1:{port} --name Luke" with stdin
            expect stdout client eventually line "Luke has joined"
            input client line "msg:hi"
            expect stdout client eventually line "Luke: hi"
            input client eof
            expect exit client code 0 within 3s
            sleep 100ms
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let imported = try await captureAndImport(scenario, "--as", "server")
        let text = imported.stdout
        // The header names client → server; `var port` is the server's.
        let server = try #require(text.firstMatch(of: try Regex(#"→ 127\.0\.0\.1:(\d+),"#))?.output[1].substring)
        #expect(text.contains("var host = \"127.0.0.1\"\nvar port = \"\(server)\""), "\(text)")
        #expect(text.contains("listen l {host}:{port}\naccept c on l\nexpect line \"iam:Luke\"\nsend line \"Luke has joined\""), "\(text)")
        let written = directory.appendingPathComponent("imported.scn")
        try text.write(to: written, atomically: true, encoding: .utf8)
        let linechat = ProbeProcess.linechat.path
        let wrapper = directory.appendingPathComponent("replay.scn")
        try """
            spawn client "sh -c 'sleep 0.3; printf \\"msg:hi\\\\n\\" | exec \(linechat) connect 127.0.0.1:{port} --name Luke'"
            include "imported.scn"
            expect stdout client eventually line "Luke: hi"
            expect exit client code 0 within 3s

            """.write(to: wrapper, atomically: true, encoding: .utf8)
        let replayed = try await ProbeProcess.run(["run", "--var", "port=\(try freePort())", wrapper.path])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
    }

    /// `tcpprobe record` between redis-cli and redis-server writes each conversation as it ends
    /// (redis-cli with a command as arguments: fed on standard input it first asks for COMMAND
    /// DOCS, whose order redis does not keep from run to run); INCR's reply masked, the
    /// recordings replay against the same server, where INCR now answers 2; written without
    /// the mask, the replay names the difference.
    @Test(.redis) func aRecordingOfRedisReplays() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try freePort()
        let redis = try await startRedis(port)
        defer { kill(redis.processIdentifier, SIGKILL); redis.waitUntilExit() }
        let recording = directory.appendingPathComponent("record.scn")
        try """
            var front = free-port
            set timeout 5s
            spawn recorder "tcpprobe record --listen 127.0.0.1:{front} --to 127.0.0.1:\(port) -o \(directory.path)/rec-\\{n\\}.scn --mask :[0-9]+" ready on 127.0.0.1:{front} within 10s
            expect stdout recorder line /^tcpprobe record: listening on /
            spawn set "redis-cli -p {front} SET k v1"
            expect stdout set line "OK" within 5s
            expect stdout recorder line /^connection 1: 127.0.0.1:[0-9]+ → 127.0.0.1:[0-9]+, 2 turns, written to .*rec-1.scn$/ within 5s
            spawn incr "redis-cli -p {front} INCR n"
            expect stdout incr line "1" within 5s
            expect stdout recorder line /^connection 2: .*rec-2.scn$/ within 5s
            spawn get "redis-cli -p {front} GET k"
            expect stdout get line "v1" within 5s
            expect stdout recorder line /^connection 3: .*rec-3.scn$/ within 5s
            """.write(to: recording, atomically: true, encoding: .utf8)
        let recorded = try await ProbeProcess.run(["run", recording.path])
        #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
        let incr = try String(contentsOf: directory.appendingPathComponent("rec-2.scn"), encoding: .utf8)
        #expect(incr.hasPrefix("# Recorded by `tcpprobe record --listen 127.0.0.1:") && incr.contains(" --to 127.0.0.1:\(port)`, connection 2: 127.0.0.1:"), "\(incr)")
        #expect(incr.contains("send line \"INCR\"\nsend line \"$1\"\nsend line \"n\"\nexpect line /^(?<masked1>:[0-9]+)$/\n"), "\(incr)")
        // redis-cli's FIN, and redis's after it, are recorded as FINs, not resets.
        #expect(incr.hasSuffix("shutdown write\nexpect eof\n"), "\(incr)")
        for number in 1...3 {
            let replayed = try await ProbeProcess.run(["run", directory.appendingPathComponent("rec-\(number).scn").path])
            #expect(replayed.status == 0, "rec-\(number).scn: \(replayed.stdout)\(replayed.stderr)")
        }
        let unmasked = directory.appendingPathComponent("rec-unmasked.scn")
        try incr.replacingOccurrences(of: "expect line /^(?<masked1>:[0-9]+)$/", with: "expect line \":1\"").write(to: unmasked, atomically: true, encoding: .utf8)
        let differs = try await ProbeProcess.run(["run", unmasked.path])
        #expect(differs.status == 1 && differs.stdout.contains("expected line: \":1\"") && differs.stdout.contains("received line: \":3\""), "\(differs.stdout)")
    }

    /// curl against an HTTP server (Python's http.server), captured by tcpdump: the response's
    /// dates masked, the import replays against the same server a second later.
    @Test(.tcpdump, .curl) func aTcpdumpCaptureOfCurlReplaysWithItsDatesMasked() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let site = directory.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try "hello\n".write(to: site.appendingPathComponent("hello.txt"), atomically: true, encoding: .utf8)
        let port = try freePort()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-m", "http.server", "\(port)", "--bind", "127.0.0.1", "--directory", site.path]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        try await waitForListener(port)
        let pcap = directory.appendingPathComponent("http.pcap")
        try await capturing(port, to: pcap) {
            let curl = try await ProbeProcess.run(["-s", "--retry", "5", "--retry-connrefused", "http://127.0.0.1:\(port)/hello.txt"],
                                                  executable: URL(fileURLWithPath: try #require(Requirement.curl.path)))
            #expect(curl.stdout == "hello\n", "\(curl.stdout)\(curl.stderr)")
        }

        let imported = directory.appendingPathComponent("http.scn")
        let date = "[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT"
        let written = try await ProbeProcess.run(["import", pcap.path, "--mask", date, "-o", imported.path])
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOf: imported, encoding: .utf8)
        #expect(text.contains("send \"GET /hello.txt HTTP/1.1\\r\\nHost: 127.0.0.1:\(port)\\r\\n") && text.contains("(?<masked1>"), "\(text)")
        try await Task.sleep(for: .seconds(1))
        let replayed = try await ProbeProcess.run(["run", imported.path])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)\n\(text)")
    }

    /// A memcached conversation (the probe as its client), captured by tcpdump, imported and
    /// replayed against the same server.
    @Test(.tcpdump, .memcached) func aTcpdumpCaptureOfMemcachedReplays() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try freePort()
        let memcached = Process()
        memcached.executableURL = URL(fileURLWithPath: "/usr/bin/memcached")
        memcached.arguments = ["-p", "\(port)", "-l", "127.0.0.1", "-U", "0", "-u", "root"]
        try memcached.run()
        defer { kill(memcached.processIdentifier, SIGKILL); memcached.waitUntilExit() }
        try await waitForListener(port)
        let pcap = directory.appendingPathComponent("memcached.pcap")
        try await capturing(port, to: pcap) {
            let client = directory.appendingPathComponent("client.scn")
            try """
                set timeout 2s
                connect 127.0.0.1:\(port) timeout 5s
                send line "set greeting 0 0 5"
                send line "hello"
                expect line "STORED"
                send line "get greeting"
                expect line "VALUE greeting 0 5"
                expect line "hello"
                expect line "END"
                send line "quit"
                expect eof
                """.write(to: client, atomically: true, encoding: .utf8)
            let ran = try await ProbeProcess.run(["run", client.path])
            #expect(ran.status == 0, "\(ran.stdout)\(ran.stderr)")
        }
        let imported = directory.appendingPathComponent("memcached.scn")
        let written = try await ProbeProcess.run(["import", pcap.path, "-o", imported.path])
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOf: imported, encoding: .utf8)
        #expect(text.contains("send line \"set greeting 0 0 5\"\nsend line \"hello\"\nexpect line \"STORED\""), "\(text)")
        let replayed = try await ProbeProcess.run(["run", imported.path])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
    }

    /// redis-cli against redis-server (a SET, then a GET, a connection each), captured by
    /// tcpdump: each connection imports and replays; tshark's pcapng of the same capture
    /// imports to the same scenario.
    @Test(.tcpdump, .redis, .tshark) func aTcpdumpCaptureOfRedisReplays() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try freePort()
        let redis = try await startRedis(port)
        // SIGKILL: this process may hand its children SIGTERM and SIGINT blocked (a dispatch
        // signal source of a RunSession that ran in it), and -U wrote tcpdump's every packet.
        defer { kill(redis.processIdentifier, SIGKILL); redis.waitUntilExit() }
        let pcap = directory.appendingPathComponent("redis.pcap")
        try await capturing(port, to: pcap) {
            for command in [["SET", "greeting", "hello"], ["GET", "greeting"]] {
                let cli = try await ProbeProcess.run(["-p", "\(port)"] + command, executable: URL(fileURLWithPath: "/usr/bin/redis-cli"))
                #expect(cli.status == 0, "\(cli.stdout)\(cli.stderr)")
            }
        }

        var text = ""
        for (connection, expected) in [(1, "expect line \"+OK\""), (2, "expect line \"hello\"")] {
            let imported = directory.appendingPathComponent("redis-\(connection).scn")
            let written = try await ProbeProcess.run(["import", pcap.path, "--connection", "\(connection)", "-o", imported.path])
            #expect(written.status == 0, "\(written.stderr)")
            text = try String(contentsOf: imported, encoding: .utf8)
            #expect(text.contains(expected), "\(text)")
            let replayed = try await ProbeProcess.run(["run", imported.path])
            #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        }

        let pcapng = directory.appendingPathComponent("redis.pcapng")
        try PcapngConversion.convert(pcap, to: pcapng)
        let fromNG = try await ProbeProcess.run(["import", pcapng.path, "--connection", "2"])
        #expect(fromNG.stdout.split(separator: "\n").dropFirst() == text.split(separator: "\n").dropFirst(), "the same scenario but for the file it names:\n\(fromNG.stdout)")
    }
}
