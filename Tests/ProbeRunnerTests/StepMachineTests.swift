import TestSupport
import Testing

/// Statements run by the event loop (`StepMachine`), a `parallel` block's copies above all:
/// their `repeat`s and `{i}`, the steps that run as tasks, deadlines and the copy's end.
@Suite struct StepMachineTests {
    @Test func repeatsCountTheirTurnsAndNestedOnesRestoreTheOuterTurn() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        // The echoes are expected after the repeats, with the turns written out: an expect
        // inside a repeat would read {i} as wrongly as the send beside it.
        let result = try await ScenarioHarness.run("""
            set timeout 5s
            parallel 3 {
              connect 127.0.0.1:{port}
              repeat 2 {
                repeat 3 { send line "{copy}.{i}" }
                send line "outer {i}"
              }
              repeat 0 { send line "never" }
              send line "done {copy}"
              expect line "{copy}.0"
              expect line "{copy}.1"
              expect line "{copy}.2"
              expect line "outer 0"
              expect line "{copy}.0"
              expect line "{copy}.1"
              expect line "{copy}.2"
              expect line "outer 1"
              expect line /^done {copy}$/
            }
            """, against: peer)
        result.expectPassed()
        #expect(result.parallel.first?.expects == 3 * 9)
    }

    /// An expect is made in the object of one the log let go (see `LoggedStep`): past the
    /// log's first thousand entries, the ones it keeps still show each expect's own match, and
    /// a late expect that fails names its own line and connection.
    @Test func expectsMadeInObjectsTheLogLetGoShowTheirOwnSteps() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            set timeout 5s
            connect a 127.0.0.1:{port}
            connect b 127.0.0.1:{port}
            repeat 700 {
              a: send line "a {i}"
              b: send line "b {i}"
              a: expect line "a {i}"
              b: expect line /^b \\d+$/
            }
            b: send line "late"
            b: expect line "not late"
            """, against: peer)
        result.expectFailure(line: 11, containing: "b", "late")
        let expects = result.log.suffix(8).map(\.message).filter { $0.contains(": got ") }
        #expect(expects.count == 4, "\(expects)")
        for (index, message) in expects.enumerated() {
            let (name, turn) = (index % 2 == 0 ? "a" : "b", 698 + index / 2)
            #expect(message.hasPrefix("connection '\(name)': got line \"\(name) \(turn)\""), "\(message)")
        }
    }

    /// A `parallel` block inside a `repeat`: its copies read the repeat's `{i}`, and a repeat
    /// of their own gives it back when it ends.
    @Test func copiesInsideARepeatSeeItsTurn() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            set timeout 5s
            repeat 2 {
              parallel 2 {
                connect 127.0.0.1:{port}
                repeat 1 { send line "inner {i}" }
                send line "turn {i}"
                expect line "inner 0"
                expect line /^turn [01]$/
              }
            }
            """, against: peer)
        result.expectPassed()
        #expect(result.parallel.count == 2 && result.parallel.allSatisfy { $0.passed == 2 }, "\(result.parallel)")
    }

    /// A split send, `pause reading` and `abort` have no event-loop form: each runs as a task.
    @Test func stepsWithNoLoopFormRunAsTasks() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            set timeout 5s
            parallel 20 {
              connect 127.0.0.1:{port}
              send line "piece {copy}" split at 3 every 1ms
              expect line "piece {copy}"
              pause reading
              resume reading
              abort
            }
            """, against: peer)
        result.expectPassed()
        #expect(result.parallel.first?.passed == 20)
    }

    @Test func theDeadlineCutsACopysSleepShort() async throws {
        let result = try await ScenarioHarness.run("""
            set deadline 200ms
            parallel 5 {
              sleep 10s
            }
            """)
        result.expectFailure(line: 3, containing: "of parallel 5 (test.scn:2) failed; 0 of 5 copies passed",
                             "the scenario deadline of 200ms passed during the sleep")
    }

    @Test func aCopyFailsAtItsEndOnBytesNoExpectRead() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            set timeout 5s
            set unread fail
            parallel 3 {
              connect 127.0.0.1:{port}
              send line "ping"
              expect line "ping"
              send line "left over {copy}"
              sleep 100ms
            }
            """, against: peer)
        result.expectFailure(line: 3, containing: "0 of 3 copies passed", "had 13 unread bytes when the scenario ended")
    }

    @Test func aFailedExpectInACopyReportsTheBytesThatCame() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            set timeout 300ms
            parallel 2 {
              connect 127.0.0.1:{port}
              send "partial"
              expect line "partial"
            }
            """, against: peer)
        result.expectFailure(line: 5, containing: "timed out after 300ms waiting for", "unconsumed so far: \"partial\"")
        #expect(result.failure?.recentBytes == Array("partial".utf8))
    }
}
