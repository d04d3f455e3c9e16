import ProbeRunner
import TestSupport
import Testing

/// How a send is cut into writes and logged, at the edges: what --var can make of a count,
/// the longest write list logged whole, the rate's piece size, the seed noted once.
@Suite(.serialized) struct SendPlanTests {
    @Test func aChunkFrameOrSplitOffsetOfZeroFromAVariableFails() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let chunks = try await ScenarioHarness.run("connect 127.0.0.1:{port}\nsend \"abc\" in chunks of {n}", against: peer, variables: ["n": "0"])
        chunks.expectFailure(line: 2, containing: "a chunk size must be at least 1")
        let split = try await ScenarioHarness.run("connect 127.0.0.1:{port}\nsend \"abc\" split at {n},2", against: peer, variables: ["n": "0"])
        split.expectFailure(line: 2, containing: "split offsets start at 1, not 0")
        // As the parser says of `in frames of 0` (it once sent one frame; fragmenting by 0 would trap).
        let frames = try await ScenarioHarness.run("connect 127.0.0.1:{port}\nsend text \"abc\" in frames of {n}", against: peer, variables: ["n": "0"])
        frames.expectFailure(line: 2, containing: "a frame holds at least 1 byte")
    }

    /// Up to 24 writes are logged one by one; past that the middle is elided.
    @Test func twentyFourWritesAreLoggedWholeAndTwentyFiveElided() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send "abcdefghijklmnopqrstuvwx" in chunks of 1
            send "abcdefghijklmnopqrstuvwxy" in chunks of 1
            """, against: peer)
        result.expectPassed()
        let sends = result.log.map(\.message).filter { $0.contains(" writes: ") }
        try #require(sends.count == 2, "\(sends)")
        #expect(sends[0].contains(" in 24 writes: ") && !sends[0].contains("…"), "\(sends[0])")
        #expect(sends[1].contains(" in 25 writes: ") && sends[1].contains("…"), "\(sends[1])")
    }

    /// A paced send without chunks writes about twenty pieces a second: 2 KiB at 20 KiB/s is two writes.
    @Test func aRateWithoutChunksWritesATwentiethOfASecondAtATime() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("connect 127.0.0.1:{port}\nsend random 2KiB at 20KiB/s", against: peer)
        result.expectPassed()
        let send = try #require(result.log.first { $0.message.contains("sent 2048 bytes") }?.message)
        #expect(send.contains(" in 2 writes: "), "\(send)")
    }

    @Test func theRandomSeedIsNotedOnceHoweverManyRandomSends() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("connect 127.0.0.1:{port}\nsend random 8\nsend random 8", against: peer)
        result.expectPassed()
        #expect(result.notes.filter { $0.hasPrefix("random seed") } == ["random seed 42 (rerun with --seed 42)"], "\(result.notes)")
    }

    /// One byte is "1 byte" in the log, sent, expected and read slowly; more are "bytes".
    @Test func countsInTheLogAgreeWithTheirNouns() async throws {
        let result = try await ScenarioHarness.run("""
            set timeout 2s
            listen l 127.0.0.1:0
            connect c 127.0.0.1:{l.port}
            accept s on l
            c: send "x"
            s: expect bytes 1
            s: send "yz"
            c: read slowly 1 byte every 10ms total 1 byte
            c: expect bytes 2
            """)
        result.expectPassed()
        let messages = result.log.map(\.message)
        for said in ["connection 'c': sent 1 byte \"x\"", "connection 's': got 1 byte after ", "connection 's': sent 2 bytes \"yz\"",
                     "connection 'c': read slowly 1 byte in 1 read of at most 1 over ", "connection 'c': got 2 bytes after "] {
            #expect(messages.contains { $0.hasPrefix(said) }, "\(said): \(messages)")
        }
    }
}
