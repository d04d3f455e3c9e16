import Foundation
import ProbeHost
import TestSupport
import Testing

/// A send the peer's close cuts off is noted, not failed: a server that refuses an over-long
/// line and closes at once, or ends a slowloris drip at its timeout, is right. What arrived can
/// still be read; the next send fails, naming the send that was cut off. `until closed` drips
/// until the peer closes, on a send and on a `repeat` block.
@Suite struct SendCutOffTests {
    static let server = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers/line_limit_server.py").path
    static let spawn = "spawn server \"python3 \(server)\" ready when stdout /^(?<port>[0-9]+)$/ within 10s"

    /// Scenarios/line-server/max-line.scn, its body as shipped, against a server that answers
    /// and closes at once (RST, with the rest of the drip unread): 20 runs of 20 pass.
    /// `repeat … } until closed` watches the connection its body's steps name, not the
    /// scenario's current one: with `b` named in the body and either connection opened last
    /// (so current), the block ends after the turn in which b's peer closed, and `a` is left
    /// open. Watching the current connection instead, the next turn would send on closed `b`.
    @Test(arguments: [["b", "a"], ["a", "b"]])
    func untilClosedWatchesTheConnectionTheBodyNames(_ order: [String]) async throws {
        let connects = order.map { "connect \($0) 127.0.0.1:{l.port}\naccept s\($0) on l\n" }.joined()
        let result = try await ScenarioHarness.run("""
            set timeout 2s
            listen l 127.0.0.1:0

            """ + connects + """
            repeat 5 {
              b: send line "x{i}"
              sb: expect line "x{i}"
              sb: close
              b: expect eof
            } until closed
            a: send line "still open"
            sa: expect line "still open"
            """)
        result.expectPassed()
        #expect(result.log.contains { $0.message.hasPrefix("connection 'b': the peer closed the connection during turn 1 of the repeat") },
                "\(result.log.map(\.message))")
    }

    @Test func maxLinePassesAgainstAServerThatClosesAtOnce() async throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Scenarios/line-server/max-line.scn").standardized.path
        let shipped = try String(contentsOfFile: file, encoding: .utf8)
        let body = shipped.replacingOccurrences(of: "include \"lib/server.inc\"", with: "var host = \"127.0.0.1\"\nset timeout 2s\n" + Self.spawn)
        #expect(body != shipped)
        var passed = 0
        for _ in 0..<20 {
            let result = try await ScenarioHarness.run(body)
            result.expectPassed()
            if result.failure == nil { passed += 1 } else { break }
        }
        #expect(passed == 20)
    }

    /// A drip the server cuts: the step passes and says so, the refusal is read, and the next
    /// send fails naming the send that was cut off.
    @Test func aCutOffSendIsNotedAndTheNextSendNamesIt() async throws {
        let result = try await ScenarioHarness.run("""
            set timeout 3s
            \(Self.spawn)
            connect 127.0.0.1:{port}
            send "\(String(repeating: "x", count: 3000))" in chunks of 100 every 5ms
            expect line "ERR line too long"
            send line "more"
            """)
        result.expectFailure(line: 6, containing: "connection #1 is closed: the peer closed it during the send at test.scn:4 (after ")
        #expect(result.log.contains { $0.message.contains("the peer closed the connection (") && $0.message.contains("of 3000 bytes; the send was cut off") },
                "\(result.log.map(\.message))")
    }

    /// `set cut-off skip`: the sends after the cut-off one are skipped, each saying so in the
    /// log, and the expects go on judging what came; `set cut-off fail` brings the failure back.
    @Test func setCutOffSkipSkipsTheSendsAfterACutOffOne() async throws {
        let drip = "send \"\(String(repeating: "x", count: 3000))\" in chunks of 100 every 5ms"
        let result = try await ScenarioHarness.run("""
            set timeout 3s
            set cut-off skip
            \(Self.spawn)
            connect 127.0.0.1:{port}
            \(drip)
            send line "more"
            send line "and more"
            expect line "ERR line too long"
            expect close
            set cut-off fail
            send line "too late"
            """)
        result.expectFailure(line: 11, containing: "connection #1 is closed: the peer closed it during the send at test.scn:5 (after ")
        let skipped = result.log.filter { $0.message.contains("not sent: connection #1 is closed: the peer closed it during the send at test.scn:5") }
        #expect(skipped.count == 2, "\(result.log.map(\.message))")
    }

    /// haproxy's `timeout http-request 2s` ends a slowloris drip with 408 and a close: ten
    /// copies drip a header a byte every 100 ms `until closed within 3s`, and all ten pass.
    @Test(.haproxy) func haproxyEndsASlowlorisDripAtItsTimeout() async throws {
        let (configuration, port) = try ServerConfiguration.write("haproxy.cfg") { port in """
            global
              maxconn 64
            defaults
              mode http
              timeout connect 1s
              timeout client 10s
              timeout server 10s
              timeout http-request 2s
            frontend front
              bind 127.0.0.1:\(port)
              default_backend back
            backend back
              server none 127.0.0.1:9

            """ }
        defer { try? FileManager.default.removeItem(at: configuration.deletingLastPathComponent()) }
        let result = try await ScenarioHarness.run("""
            set timeout 5s
            spawn haproxy "\(try #require(Requirement.haproxy.path)) -db -f {cfg}" ready on 127.0.0.1:{port} within 10s
            parallel 10 {
              connect 127.0.0.1:{port}
              send "GET / HTTP/1.1\\r\\nHost: test\\r\\n"
              send "X-Slow: \(String(repeating: "a", count: 100))\\r\\n" in chunks of 1 every 100ms until closed within 3s
              expect line /^HTTP\\/1.[01] 408 /
            }
            """, variables: ["cfg": configuration.path, "port": String(port)])
        result.expectPassed()
        #expect(result.parallel.first.map { $0.passed == 10 && $0.failed == 0 } == true, "\(result.parallel)")
    }

    /// ngircd drops a connection that has not registered in time (PingTimeout and PongTimeout of
    /// 2 s here: about 6 s): a NICK dripped a byte every 200 ms `until closed within 10s` passes
    /// when it does, the drip cut off.
    @Test(.ngircd) func ngircdEndsAnUnregisteredDrip() async throws {
        let (configuration, port) = try ServerConfiguration.ngircd()
        defer { try? FileManager.default.removeItem(at: configuration.deletingLastPathComponent()) }
        let result = try await ScenarioHarness.run("""
            set timeout 2s
            spawn irc "\(try #require(Requirement.ngircd.path)) -n -f {conf}" ready on 127.0.0.1:{port} within 10s
            connect 127.0.0.1:{port}
            send "NICK a-nick-that-never-ends-its-line" in chunks of 1 every 200ms until closed within 10s
            expect close
            """, variables: ["conf": configuration.path, "port": String(port)])
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("the peer closed the connection (FIN) after ") && $0.message.contains(", as `until closed` waits for") },
                "\(result.log.map(\.message))")
    }

    /// A rate's wait ends at `until closed`'s time rather than past it: the bytes earned by
    /// then are sent (at 0, 100, 200 and 300 ms; the fifth is due at 400) and the failure
    /// counts them.
    @Test(.timed) func aRatesWaitEndsWhenUntilClosedRunsOut() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("connect 127.0.0.1:{port}\nsend random 100 at 10/s until closed within 350ms", against: peer)
        result.expectFailure(line: 2, containing: "the peer did not close the connection within 350ms of the step's start (")
        let message = try #require(result.failure?.message)
        let sent = message.split(separator: "(").last.flatMap { Int($0.prefix { $0.isNumber }) }
        #expect(sent.map { (3...4).contains($0) } == true, "\(message)")
    }

    /// A pause between pieces ends at `until closed`'s time too: a drip a byte a second
    /// `within 300ms` fails at 300 ms, one byte sent, not at the next byte's second.
    @Test(.timed) func aPauseEndsWhenUntilClosedRunsOut() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("connect 127.0.0.1:{port}\nsend \"abc\" in chunks of 1 every 1s until closed within 300ms", against: peer)
        result.expectFailure(line: 2, containing: "the peer did not close the connection within 300ms of the step's start (1 of 3 bytes sent)")
        #expect(result.duration < .milliseconds(900), "\(result.duration)")
    }

    /// Once every byte is sent, `until closed` sees the peer's close within a few
    /// milliseconds of it, not at the end of the time it gives.
    @Test(.timed) func aCloseAfterTheSendIsSeenAsItComes() async throws {
        let result = try await ScenarioHarness.run("""
            set timeout 1s
            \(Self.spawn)
            connect 127.0.0.1:{port}
            send "\(String(repeating: "x", count: 1100))" until closed within 5s
            expect line "ERR line too long"
            """)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("after the send, as `until closed` waits for") }, "\(result.log.map(\.message))")
        #expect(result.duration < .seconds(3), "\(result.duration)")
    }

    /// `until closed within D`: passes when the peer closes within D of the step's start, the
    /// payload sent or not; fails when it does not, on a send and on a repeat block.
    @Test(.timed) func untilClosedWaitsForThePeersClose() async throws {
        let cut = try await ScenarioHarness.run("""
            set timeout 1s
            \(Self.spawn)
            connect 127.0.0.1:{port}
            send random 64KiB in chunks of 50 every 2ms until closed within 3s
            expect line "ERR line too long"
            """)
        cut.expectPassed()
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let started = ContinuousClock.now
        let open = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send "x" in chunks of 1 every 10ms until closed within 300ms
            """, against: peer)
        open.expectFailure(line: 2, containing: "the peer did not close the connection within 300ms of the step's start (1 of 1 bytes sent)")
        #expect(ContinuousClock.now - started < .seconds(2))
        let repeated = try await ScenarioHarness.run("""
            set timeout 1s
            \(Self.spawn)
            connect 127.0.0.1:{port}
            repeat 300 {
              send "xxxxxxxxxx"
              sleep 2ms
            } until closed
            send "\\r\\n"
            expect line "ERR line too long"
            """)
        repeated.expectPassed()
        #expect(repeated.log.contains { $0.message.contains("during turn") && $0.message.contains("of the repeat, as `until closed` waits for") },
                "\(repeated.log.map(\.message))")
        let ranOut = try await ScenarioHarness.run("""
            set timeout 300ms
            connect 127.0.0.1:{port}
            repeat 3 { send "x" } until closed
            """, against: peer)
        ranOut.expectFailure(line: 3, containing: "the peer did not close connection #1 within the repeat's 3 turns and 300ms after them")
    }
}
