import Foundation
import Testing
import TestSupport

/// Binary protocols against real servers, framed by `set framing varint|length … after N`
/// with the message's head: MQTT 3.1.1 against mosquitto (a head byte, then a varint).
@Suite(.serialized) struct BinaryProtocolTests {
    /// mosquitto on a free port, and the MQTT CONNECT of client `id` with a keepalive of
    /// `keepalive` seconds under `set framing varint after 1`.
    static func broker(_ connections: [(name: String, id: String, keepalive: Int)]) -> String {
        var text = """
            set timeout 3s
            var port = free-port
            spawn broker "mosquitto -p {port}" ready on 127.0.0.1:{port} within 10s
            set framing varint after 1

            """
        for (name, id, keepalive) in connections {
            let clientID = id.utf8.map { String(format: "%02x", $0) }.joined(separator: " ")
            text += """
                connect \(name) 127.0.0.1:{port}
                \(name): send message head hex"10" hex"00 04 4d 51 54 54 04 02 00 \(String(format: "%02x", keepalive)) 00 \(String(format: "%02x", id.utf8.count)) \(clientID)"
                \(name): expect message head hex"20" hex"00 00"

                """
        }
        return text
    }

    /// SUBSCRIBE and SUBACK; a QoS 1 PUBLISH with packet id 0x0081 (past 0x80) and a 200-byte
    /// payload (a 2-byte varint), whose PUBACK echoes the id; the subscriber gets it with an id
    /// the broker chose, captured and sent back in its PUBACK.
    @Test(.mosquitto) func mosquittoPublishesAtQoS1() async throws {
        let result = try await ScenarioHarness.run(Self.broker([("s", "sub", 60), ("p", "pub", 60)]) + """
            s: send message head hex"82" hex"00 01 00 03 74 2f 31 01"
            s: expect message head hex"90" hex"00 01 01"
            p: send message head hex"32" "\\0\\x03t/1\\0\\x81{payload}"
            p: expect message head hex"40" hex"00 81"
            s: expect message head hex"32" /^\\x00\\x03t\\/1(?<id>..)x{200}$/s
            s: send message head hex"40" "{id}"
            p: send message head hex"e0" ""
            p: expect eof
            """, variables: ["payload": String(repeating: "x", count: 200)])
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("one message: a varint length after 1 head byte and 207 bytes") }, "\(result.log.map(\.message))")
    }

    /// With a keepalive of 1 s, mosquitto drops a client that stays silent (mosquitto 2.0.11
    /// checks coarsely: after 5.7 s here), and keeps one whose rules send PINGREQ every 500 ms
    /// and consume each PINGRESP, while the scenario waits on the other connection.
    @Test(.mosquitto) func mosquittoDropsASilentClientAndKeepsOneWithAHeartbeat() async throws {
        let result = try await ScenarioHarness.run(Self.broker([("quiet", "quiet", 1), ("kept", "kept", 1)]) + """
            kept: on every 500ms send message head hex"c0" ""
            kept: on message head hex"d0" any
            quiet: expect close within 10s
            kept: expect nothing for 500ms
            """)
        result.expectPassed()
        let log = result.log.map(\.message)
        #expect(log.contains { $0.hasPrefix("connection 'kept': rule `kept: on message head hex\"d0\" any`: ") }, "\(log)")
    }
}

/// PostgreSQL's frontend/backend protocol against Debian's server, started on a free port with
/// `trust` for 127.0.0.1: a type byte, then a length that counts itself.
@Suite(.serialized) struct PostgresProtocolTests {
    /// A cluster's directory, owned by the user the server runs as (root may not run it).
    private func cluster() throws -> (directory: String, asUser: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard geteuid() == 0 else { return (directory, "") }
        try FileManager.default.setAttributes([.ownerAccountName: "postgres", .groupOwnerAccountName: "postgres"], ofItemAtPath: directory)
        return (directory, "setpriv --reuid=postgres --regid=postgres --clear-groups ")
    }

    /// The server started on a free port `{port}` in a new cluster, as a scenario's first steps.
    private static let startServer = """
        set timeout 5s
        var port = free-port
        spawn init "{as}{bin}/initdb -D {dir}/data -A trust -U postgres --no-sync"
        expect exit init code 0 within 60s
        spawn db "{as}{bin}/postgres -D {dir}/data -p {port} -k {dir} -c listen_addresses=127.0.0.1 -c fsync=off" ready when stderr /ready to accept connections/ within 30s
        connect c 127.0.0.1:{port}

        """
    /// The startup message for user and database `postgres`, as hex: it has no type byte.
    private static let startup = "hex\"00 00 00 29 00 03 00 00 75 73 65 72 00 70 6f 73 74 67 72 65 73 00 64 61 74 61 62 61 73 65 00 70 6f 73 74 67 72 65 73 00 00\""

    private func variables(_ directory: String, _ asUser: String) throws -> [String: String] {
        let bin = URL(fileURLWithPath: try #require(Requirement.postgres.path)).deletingLastPathComponent().path
        return ["dir": directory, "as": asUser, "bin": bin]
    }

    /// The startup message, AuthenticationOk, the server's parameters up to ReadyForQuery, a
    /// simple query `SELECT 1` with its RowDescription, DataRow, CommandComplete and
    /// ReadyForQuery, then Terminate.
    @Test(.postgres, .setpriv) func aSimpleQueryUnderALengthThatCountsItself() async throws {
        let (directory, asUser) = try cluster()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try await ScenarioHarness.run(Self.startServer + """
            c: send \(Self.startup)
            set framing length 4 after 1 adjust -4
            c: expect message head "R" hex"00 00 00 00"
            c: expect until /Z\\x00\\x00\\x00\\x05I/ max 4KiB
            c: send message head "Q" "SELECT 1\\0"
            c: expect message head "T" any
            c: expect message head "D" hex"00 01 00 00 00 01 31"
            c: expect message head "C" "SELECT 1\\0"
            c: expect message head "Z" "I"
            c: send message head "X" ""
            c: expect eof
            """, variables: try variables(directory, asUser))
        result.expectPassed()
    }

    /// The server answers an SSLRequest with one unframed byte, `N` (or `S` and TLS), before its
    /// framed messages: the wire checks of messages cut the peer's stream from where `set
    /// framing` took effect (offset 1), and the probe's from where it had sent the SSLRequest and
    /// the startup message (offset 49); over TLS the decrypted stream, the same offsets counting
    /// the plaintext before the handshake. Cut from offset 0, no message of either would be whole.
    @Test(.postgres, .setpriv, .root, arguments: [false, true])
    func wireChecksCutMessagesFromWhereFramingBegan(overTLS: Bool) async throws {
        let (directory, asUser) = try cluster()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var server = Self.startServer
        var upgrade = "c: expect hex\"4e\""
        // Over TLS the server ends with close_notify and FIN, and the probe's close_notify in
        // answer may reach a socket already closed: RST or FIN, whichever the race gives.
        let ending = overTLS ? "c: expect close" : "c: expect eof"
        if overTLS {
            let authority = try TestAuthority(in: URL(fileURLWithPath: directory))
            let issued = try authority.issue("postgres")
            for file in [issued.certificate, issued.key] {
                try FileManager.default.setAttributes([.ownerAccountName: "postgres", .posixPermissions: 0o600], ofItemAtPath: file)
            }
            server = server.replacingOccurrences(of: "-c fsync=off", with: "-c fsync=off -c ssl=on -c ssl_cert_file=\(issued.certificate) -c ssl_key_file=\(issued.key)")
            upgrade = "c: expect hex\"53\"\nc: starttls ca \"\(authority.rootPath)\" sni \"localhost\""
        }
        var text = server + """
            set capture on
            c: send hex"00 00 00 08 04 d2 16 2f"
            \(upgrade)
            c: send \(Self.startup)
            set framing length 4 after 1 adjust -4
            c: expect message head "R" hex"00 00 00 00"
            c: expect until /Z\\x00\\x00\\x00\\x05I/ max 4KiB
            c: send message head "Q" "SELECT 1\\0"
            c: expect until /Z\\x00\\x00\\x00\\x05I/ max 4KiB
            c: assert wire from peer messages unsplit
            c: assert wire from peer message "I" in 1 segment
            c: assert wire from probe messages unsplit
            c: send message head "X" ""
            \(ending)
            """
        for (name, value) in try variables(directory, asUser) { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        let result = try await ScenarioHarness.runCapturing(text)
        result.expectPassed()
        let verdicts = result.log.map(\.message).filter { $0.contains(": wire from ") }
        #expect(verdicts.count == 3, "\(verdicts)")
        #expect(verdicts.allSatisfy { $0.contains("decrypted") } == overTLS, "\(verdicts)")
        let unit = overTLS ? "TLS record" : "segment"
        #expect(verdicts.first?.contains(" messages, none split across \(unit)s") == true, "\(verdicts)")
        #expect(verdicts.dropFirst().first?.contains("2 messages \"I\", each in 1 \(unit)") == true, "\(verdicts)")
        #expect(verdicts.last?.contains("1 message, not split") == true, "the Query alone, from offset 49: \(verdicts)")
    }
}
