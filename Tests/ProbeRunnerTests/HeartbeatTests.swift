import Foundation
import Testing
import TestSupport

/// Servers that ping their clients and drop the ones that do not answer: a connection kept
/// alive by `on line … send line "PONG"` while the scenario waits on another connection, which
/// has no rule and is dropped.
@Suite(.serialized) struct HeartbeatTests {
    /// nats-server pings every second and drops a client with one ping unanswered ("Stale
    /// Connection").
    @Test(.natsServer) func natsServerKeepsTheClientThatAnswersItsPings() async throws {
        let (configuration, port) = try ServerConfiguration.write("nats.conf") { port in """
            listen: 127.0.0.1:\(port)
            ping_interval: "1s"
            ping_max: 1

            """ }
        defer { try? FileManager.default.removeItem(at: configuration.deletingLastPathComponent()) }
        let result = try await ScenarioHarness.run(#"""
            set timeout 3s
            spawn nats "nats-server -c {conf}" ready on 127.0.0.1:{port} within 10s
            connect kept 127.0.0.1:{port}
            kept: expect line /^INFO /
            kept: send line "CONNECT \{\"verbose\":false\}"
            kept: on line "PING" send line "PONG"
            connect dropped 127.0.0.1:{port}
            dropped: expect line /^INFO /
            dropped: send line "CONNECT \{\"verbose\":false\}"
            dropped: expect eventually line "-ERR 'Stale Connection'" within 8s
            dropped: expect close
            kept: send line "PING"
            kept: expect line "PONG"
            """#, variables: ["conf": configuration.path, "port": String(port)])
        result.expectPassed()
        #expect(result.log.contains { $0.message.hasPrefix("connection 'kept': rule `kept: on line \"PING\" send line \"PONG\"`: ") && !$0.message.contains(": 0 lines") },
                "\(result.log.map(\.message))")
    }

    /// ngircd pings a registered client idle for PingTimeout and drops it PongTimeout later
    /// without a PONG ("Ping timeout"); ngircd 26.1 checks coarsely: with both at 2 s, it
    /// pings at 6 s and drops at 12 s.
    @Test(.ngircd) func ngircdKeepsTheClientThatAnswersItsPings() async throws {
        let (configuration, port) = try ServerConfiguration.ngircd()
        defer { try? FileManager.default.removeItem(at: configuration.deletingLastPathComponent()) }
        let result = try await ScenarioHarness.run("""
            set timeout 3s
            set unread ignore
            spawn irc "\(try #require(Requirement.ngircd.path)) -n -f {conf}" ready on 127.0.0.1:{port} within 10s
            connect kept 127.0.0.1:{port}
            kept: send line "NICK kept"
            kept: send line "USER kept 0 * :kept"
            kept: expect eventually line /^:irc.test 001 kept /
            kept: on line /^PING (?<token>.*)$/ send line "PONG {token}"
            connect dropped 127.0.0.1:{port}
            dropped: send line "NICK dropped"
            dropped: send line "USER dropped 0 * :dropped"
            dropped: expect eventually line /^ERROR :.*Ping timeout/ within 20s
            dropped: expect close
            kept: send line "PING :still-here"
            kept: expect eventually line /PONG .*still-here/
            """, variables: ["conf": configuration.path, "port": String(port)])
        result.expectPassed()
        #expect(result.log.contains { $0.message.hasPrefix("connection 'kept': rule `kept: on line /^PING (?<token>.*)$/ send line \"PONG {token}\"`: ") && !$0.message.contains(": 0 lines") },
                "\(result.log.map(\.message))")
    }
}
