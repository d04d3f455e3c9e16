import Foundation
import ProbeRunner
import TestSupport
import Testing

/// Timeouts fire on time, floods stay bounded, blocked sends fail. Serialized: these measure time.
@Suite(.serialized, .timed) struct TimingAndBoundsTests {
    @Test func aLineThatNeverComesFailsAtItsTimeoutNotLater() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send line "ping"
            expect line "pong" within 300ms
            """, against: peer)
        result.expectFailure(line: 3, containing: "timed out after 300ms waiting for line \"pong\"")
        let waited = try #require(result.failure?.waited)
        #expect(waited >= .milliseconds(300))
        // Not the default 5 s, nor twice the timeout; how late it fires on an idle machine is
        // bench/run's to measure (a busy test run can delay the wake-up by 100 ms).
        #expect(waited < .milliseconds(600), "the timeout fired \(waited - .milliseconds(300)) late")
    }

    @Test func aFloodWithoutTerminatorFailsAtMaxLineWithBoundedMemory() async throws {
        let peer = try await TestPeer.start(.flood(limit: 1024 * 1024 * 1024))
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            expect line "never" within 10s
            """, against: peer)
        result.expectFailure(line: 2, containing: "no line terminator \"\\r\\n\" within max-line 65536 bytes")
        let message = try #require(result.failure?.message)
        // "(N bytes buffered)": the probe stopped reading near max-line instead of taking the whole flood.
        let buffered = try #require(message.split(separator: "(").last?.split(separator: " ").first.flatMap { Int($0) })
        #expect(buffered >= 65538)
        #expect(buffered <= 1024 * 1024, "buffered \(buffered) bytes of a 1 GiB flood")
        #expect(try #require(result.failure?.waited) < .seconds(5))
    }

    @Test func aSendToAPeerThatNeverReadsFailsAtTheStepTimeout() async throws {
        let peer = try await TestPeer.start(.neverRead)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            set timeout 500ms
            connect 127.0.0.1:{port} sndbuf 64KiB
            send random 16MiB
            """, against: peer)
        result.expectFailure(line: 3, containing: "the peer is not reading")
        #expect(try #require(result.failure?.waited) == .milliseconds(500))
    }

    /// A write the socket took at once is done: its timeout does not fail it later, while the
    /// scenario goes on past it.
    @Test func aSendThatWentThroughIsNotFailedWhenItsTimeoutPasses() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            set timeout 200ms
            connect 127.0.0.1:{port}
            send line "ping"
            expect line "ping"
            sleep 500ms
            send line "pong"
            expect line "pong"
            """, against: peer)
        #expect(result.outcome.passed, "\(String(describing: result.failure))")
    }

    @Test func theScenarioDeadlineCutsASleepShort() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        let result = try await ScenarioHarness.run("set deadline 200ms\nsleep 5s")
        result.expectFailure(line: 2, containing: "the scenario deadline of 200ms passed during the sleep")
        #expect(clock.now - started < .seconds(2))
    }

    /// Round trips that never wait long meet the deadline either before a step or as an
    /// expect's wait is cut short by it: either way the run goes on until then, and ends there.
    @Test func theScenarioDeadlineEndsAStreamOfRoundTrips() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let clock = ContinuousClock()
        let started = clock.now
        let result = try await ScenarioHarness.run("""
            set deadline 300ms
            connect 127.0.0.1:{port}
            repeat 10000000 {
              send line "ping {i}"
              expect line "ping {i}"
            }
            """, against: peer)
        let failure = try #require(result.failure)
        #expect([4, 5].contains(failure.location.line), "\(failure.location): \(failure.message)")
        #expect(failure.message.contains("the scenario deadline of 300ms passed"), "\(failure.message)")
        let took = clock.now - started
        #expect(took >= .milliseconds(300) && took < .seconds(3), "\(took)")
        #expect(result.log.count > 20, "the round trips went on until the deadline: \(result.log.count) entries")
    }

    /// A paced send's waits (`PiecewiseSend`, on the loop with no task) end at the deadline as
    /// a sleep does; the pieces after the cut are not written.
    @Test func theScenarioDeadlineCutsAPacedSendShort() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let clock = ContinuousClock()
        let started = clock.now
        let result = try await ScenarioHarness.run("set deadline 300ms\nconnect 127.0.0.1:{port}\nsend \"abcdef\" in chunks of 1 every 1s", against: peer)
        result.expectFailure(line: 3, containing: "the scenario deadline of 300ms passed during the sleep")
        #expect(clock.now - started < .seconds(2))
        try await peer.log.waitForEnd()
        #expect(peer.log.received == Array("a".utf8), "one piece went before the deadline")
    }

    /// Copies whose sends write many pieces back to back take turns on the loop, a few writes
    /// each, as their steps do: one copy's send does not wait for the other's to end (the
    /// socket takes each piece at once, and NIO would write them all in one turn).
    @Test func copiesSendingManyPiecesTakeTurns() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            parallel 2 {
              connect 127.0.0.1:{port}
              send random 20000 in chunks of 1
            }
            """, against: peer)
        result.expectPassed()
        try await peer.log.waitForEnd(count: 2)
        let spans = Dictionary(grouping: peer.log.reads, by: \.port).values.map { reads in
            (first: reads.first!.at.uptimeNanoseconds, last: reads.last!.at.uptimeNanoseconds)
        }
        try #require(spans.count == 2)
        let overlap = Int64(min(spans[0].last, spans[1].last)) - Int64(max(spans[0].first, spans[1].first))
        let shorter = Int64(min(spans[0].last - spans[0].first, spans[1].last - spans[1].first))
        #expect(overlap > shorter / 2, "the two connections' bytes arrived over \(spans), overlapping for \(overlap) ns")
    }

    @Test func aLongRunKeepsTheFirstAndLastThousandStepsOfItsLog() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            repeat 2500 {
              send "{i},"
            }
            """, against: peer)
        result.expectPassed()
        #expect(result.log.count == 1000 + 1 + 1000)
        #expect(result.log.first?.message.contains("connected to") == true, "\(result.log.first?.message ?? "")")
        #expect(result.log[1000].message.hasPrefix("… 501 steps not kept"), "\(result.log[1000].message)")
        let last = try #require(result.log.last?.message)
        #expect(last.contains("sent 5 bytes \"2500,\"") || last.contains("sent 5 bytes \"2499,\""), "\(last)")
    }
}
