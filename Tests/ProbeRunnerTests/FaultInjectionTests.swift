import Foundation
import NIOCore
import ProbeRunner
import TestSupport
import Testing

/// Issue 3: partial writes, pacing, bandwidth, slow reads and split sweeps really happen.
/// Serialized, because these measure time on a 2-core machine.
@Suite(.serialized, .timed) struct FaultInjectionTests {
    @Test func chunksArriveAsRequestedPiecesTenMillisecondsApart() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send "0123456789abcdefghij" in chunks of 1 every 10ms
            sleep 50ms
            """, against: peer)
        result.expectPassed()
        try await peer.log.waitForEnd()
        #expect(peer.log.received == Array("0123456789abcdefghij".utf8))
        // 10 ms apart with TCP_NODELAY, every write is its own segment, and the peer reads each
        // before the next arrives unless a busy machine delays it. Sent at once, the 20 bytes
        // would arrive in one or two reads, all within a few milliseconds.
        let reads = peer.log.reads
        let span = Double(reads.last!.at.uptimeNanoseconds - reads.first!.at.uptimeNanoseconds) / 1e6
        #expect(reads.count >= 3 && span >= 100, "reads \(reads.map(\.count)) over \(span) ms")
        // When each write went out, from the send's log ("1B@10.2ms"): paced against the planned
        // times, so a late wake-up delays one write and not the ones after it.
        let send = try #require(result.log.first { $0.message.contains("in 20 writes: ") }?.message)
        let offsets = send.matches(of: #/1B@([0-9.]+)(us|ms|s)/#).map { match in
            Double(match.output.1)! * ["us": 0.001, "ms": 1, "s": 1000][String(match.output.2)]!
        }
        try #require(offsets.count == 20, "\(send)")
        let gaps = zip(offsets.dropFirst(), offsets).map { $0 - $1 }.sorted()
        #expect(gaps.first! >= 0 && abs(gaps[gaps.count / 2] - 10) <= 5, "gaps \(gaps) ms")
        #expect(offsets.last! >= 190, "the last write went out at \(offsets.last!) ms, before its planned 190 ms")
    }

    /// A swept scenario's duration is that of all its runs: the discovery run and one a split offset.
    @Test func aSweepTakesAsLongAsAllItsRuns() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("connect 127.0.0.1:{port}\nsend \"abcd\" split sweep\nsleep 30ms", against: peer)
        result.expectPassed()
        #expect(result.sweep?.outcomes.count == 3)
        #expect(result.duration >= .milliseconds(120), "four runs of at least 30 ms each: \(result.duration)")
    }

    @Test func splitAtWritesTheNamedPieces() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send line "msg:hello" split at 3,5 every 30ms
            sleep 50ms
            """, against: peer).expectPassed()
        try await peer.log.waitForEnd()
        #expect(peer.log.reads.map(\.count) == [3, 2, 6])
        // An offset past a payload known only at run time fails the step (a literal one, `check`).
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nsend \"{port}\" split at 5", against: peer)
            .expectFailure(line: 2, containing: "split offset 5 is not inside the 5 bytes")
    }

    @Test func aBandwidthLimitOf64KiBPerSecondDelivers128KiBIn2Seconds() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("""
            set timeout 10s
            connect 127.0.0.1:{port}
            send random 192KiB at 64KiB/s
            """, against: peer).expectPassed()
        try await peer.log.waitForEnd()
        let reads = peer.log.reads
        let start = try #require(reads.first).at
        let inTwoSeconds = reads.filter { $0.at - start < .seconds(2) }.reduce(0) { $0 + $1.count }
        let expected = 128.0 * 1024
        #expect(abs(Double(inTwoSeconds) - expected) / expected <= 0.05, "\(inTwoSeconds) bytes in the first 2 s")
        #expect(peer.log.received.count == 192 * 1024)
    }

    @Test func slowReadingStallsAWriterAndLosesNothing() async throws {
        let lines = 8192 // about 8 MiB
        let peer = try await TestPeer.start(.bulkLines(lines))
        defer { Task { await peer.stop() } }
        var text = """
            set timeout 10s
            connect 127.0.0.1:{port} rcvbuf 4KiB
            read slowly 512 bytes every 20ms for 400ms
            repeat \(lines) {
              expect line "{i}:\(PeerHandlerFiller.text)"
            }
            """
        text += "\n"
        let result = try await ScenarioHarness.run(text, against: peer)
        result.expectPassed()
        #expect(peer.log.didStall, "the peer's writes never blocked while the probe read slowly")
        // "read slowly N bytes in R reads of at most 512": each read takes at most 512 bytes, and
        // the reads do take bytes (the peer has megabytes waiting).
        let slow = try #require(result.log.first { $0.message.contains("read slowly") && $0.message.contains("reads of at most 512") }).message
        let words = slow.split(separator: " ")
        let received = try #require(words.firstIndex(of: "slowly").flatMap { Int(words[$0 + 1]) })
        let reads = try #require(words.firstIndex(of: "reads").flatMap { Int(words[$0 - 1]) })
        #expect(reads >= 10 && received <= 512 * (reads + 1) && received >= 512 * reads / 2, "\(slow)")
    }

    /// Every read of a slow read takes at most its size, not only a connection's first: after
    /// an expect has grown the connection's read buffer, and after another slow read, against
    /// a peer with megabytes waiting. The log's bytes stay within reads × size at 1 byte, 1 KiB
    /// and 64 KiB a read.
    @Test func everySlowReadIsExactAfterReadsThatGrewTheBuffer() async throws {
        let peer = try await TestPeer.start(.bulkLines(8192))
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            set timeout 10s
            connect 127.0.0.1:{port}
            repeat 200 { expect line any }
            read slowly 1 byte every 20ms for 300ms
            read slowly 1KiB every 10ms for 300ms
            repeat 10 { expect line any }
            read slowly 1 byte every 20ms for 300ms
            read slowly 64KiB every 20ms for 300ms
            read slowly 3 bytes every 20ms for 200ms
            """, against: peer)
        result.expectPassed()
        let slowReads = result.log.map(\.message).filter { $0.contains("read slowly") }
        #expect(slowReads.count == 5, "\(slowReads)")
        for (line, size) in zip(slowReads, [1, 1024, 1, 65536, 3]) {
            let words = line.split(separator: " ")
            let received = try #require(words.firstIndex(of: "slowly").flatMap { Int(words[$0 + 1]) })
            let reads = try #require(words.firstIndex(of: "reads").flatMap { Int(words[$0 - 1]) })
            #expect(line.contains("reads of at most \(size) "), "\(line)")
            #expect(reads >= 5 && received <= reads * size, "\(line)")
            #expect(received >= reads * size / 2, "the peer has megabytes waiting: \(line)")
        }
    }

    @Test func pauseReadingStallsTheWriterUntilResumed() async throws {
        let peer = try await TestPeer.start(.bulkLines(4096))
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("""
            set timeout 10s
            connect 127.0.0.1:{port} rcvbuf 4KiB
            pause reading
            sleep 200ms
            resume reading
            repeat 4096 { expect line any }
            """, against: peer).expectPassed()
        #expect(peer.log.didStall)
    }

    @Test func aSweepFindsOffsetOneAgainstAPeerThatReadsLinesWhole() async throws {
        let peer = try await TestPeer.start(.readAsLine)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send line "msg:hello" split sweep every 20ms
            expect line "got:msg:hello" within 1s
            """, against: peer)
        let sweep = try #require(result.sweep)
        #expect(sweep.plan.messageLength == 11)
        #expect(sweep.outcomes.map(\.offset) == Array(1...10))
        #expect(sweep.failingOffsets.first == 1)
        result.expectFailure(line: 3, containing: "with the swept message split at offset 1")
        #expect(result.notes.first?.contains("the smallest failing offset is 1") == true)
    }

    /// The newcomer's server trims a CR left at the end of a read, so only a split between CR
    /// and LF (offset 10 of "msg:hello\r\n") breaks it, and only when it reads the pieces
    /// apart. A sweep without `every` must find that offset, and only that one, every time.
    @Test func aSweepWithoutEveryFindsTheSplitBetweenCRAndLFTenTimesInTen() async throws {
        let peer = try await TestPeer.start(.trimsCRAtReadEnd)
        defer { Task { await peer.stop() } }
        for run in 1...10 {
            let result = try await ScenarioHarness.run("""
                connect 127.0.0.1:{port}
                send line "msg:hello" split sweep
                expect line "got:msg:hello" within 300ms
                """, against: peer)
            let sweep = try #require(result.sweep)
            #expect(sweep.outcomes.map(\.offset) == Array(1...10), "run \(run)")
            #expect(sweep.failingOffsets == [10], "run \(run): \(result.notes)")
            result.expectFailure(line: 3, containing: "with the swept message split at offset 10")
        }
    }

    @Test func everyZeroSendsThePiecesBackToBack() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send "abcdefghijklmnopqrst" split at 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19 every 0
            send "ghijkl" split at 3
            sleep 20ms
            """, against: peer)
        result.expectPassed()
        let writes = result.log.filter { $0.message.contains(" writes: ") }.map(\.message)
        try #require(writes.count == 2, "\(writes)")
        // Twenty pieces: waiting the default 5 ms between them would take 95 ms; back to back,
        // under half of that even on a busy machine, where a write may wait its turn for a core.
        let backToBack = writes[0].matches(of: #/B@([0-9.]+)(us|ms)/#).map { Double($0.output.1)! * ($0.output.2 == "ms" ? 1000 : 1) }
        #expect(backToBack.count == 20 && backToBack.last! < 45_000, "every 0 waits for nothing: \(writes[0])")
        let gapped = writes[1].matches(of: #/B@([0-9.]+)(us|ms)/#).map { Double($0.output.1)! * ($0.output.2 == "ms" ? 1000 : 1) }
        #expect(gapped.count == 2 && gapped[1] - gapped[0] >= 4500, "a split without every waits the default gap: \(writes[1])")
    }

    @Test func aSweepPassesEveryOffsetAgainstACorrectPeer() async throws {
        let peer = try await TestPeer.start(.lineReply)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send line "msg:hello" split sweep
            expect line "got:msg:hello" within 1s
            """, against: peer)
        result.expectPassed()
        #expect(result.sweep?.outcomes.count == 10)
        #expect(result.sweep?.failingOffsets == [])
    }

    /// A scenario that fails with the message sent whole is not swept: every offset would fail for that reason.
    @Test func aScenarioThatFailsWholeIsNotSwept() async throws {
        let peer = try await TestPeer.start(.lineReply)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send line "msg:hello" split sweep
            expect line "got:something else" within 500ms
            """, against: peer)
        result.expectFailure(line: 3, containing: "expected line")
        #expect(result.sweep == nil)
        #expect(result.notes.contains("split sweep not run: the scenario fails with the message sent whole"), "\(result.notes)")
    }

    /// A split send waits between its pieces, not after the last one: the next step starts when
    /// the last piece has gone.
    @Test func aPacedSendDoesNotWaitAfterItsLastPiece() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send "ab" split at 1 every 300ms
            """, against: peer)
        result.expectPassed()
        let sent = try #require(result.log.first { $0.message.contains(": sent 2 bytes") })
        let connected = try #require(result.log.first { $0.message.contains("connected to") })
        let took = sent.offset - connected.offset
        #expect(took >= .milliseconds(290) && took < .milliseconds(550), "the send took \(took)")
    }

    /// A paced send of one piece is one write: its log names no writes.
    @Test func aSendOfOnePieceLogsNoWrites() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send random 1KiB at 64KiB/s
            send "abcd" split at 2 every 0
            """, against: peer)
        result.expectPassed()
        let sends = result.log.map(\.message).filter { $0.contains(": sent ") }
        #expect(sends.count == 2 && !sends[0].contains(" writes") && sends[1].contains(" in 2 writes: "), "\(sends)")
        #expect(!sends.contains { $0.contains("held") }, "nothing waited for a capture: \(sends)")
    }
}

/// The bulk peer's line filler, as the scenario spells it.
enum PeerHandlerFiller {
    static let text = String(repeating: "x", count: 1000)
}
