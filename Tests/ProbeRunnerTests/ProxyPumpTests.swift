import NIOCore
import NIOEmbedded
@testable import ProbeRunner
import Testing

/// One direction of a proxy on embedded channels and an embedded loop's virtual time: each
/// fault lands to the nanosecond, with no socket and no wall clock, so a busy machine cannot
/// move a verdict. (ProxyTests drive the same pump over real sockets, end to end.)
@Suite struct ProxyPumpTests {
    /// A pump reading `source` and writing to `target`, both on `loop`.
    private struct Rig {
        let loop = EmbeddedEventLoop()
        let pump: ProxyPump
        let source: EmbeddedChannel
        let target: EmbeddedChannel

        init(_ faults: ProxyFaults = ProxyFaults(), seed: UInt64 = 7) throws {
            pump = ProxyPump(direction: .downstream, faults: faults, seed: seed)
            source = EmbeddedChannel(handler: pump, loop: loop)
            target = EmbeddedChannel(loop: loop)
            try target.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            pump.start(target: target)
        }

        func send(_ text: String) throws {
            try source.writeInbound(ByteBuffer(string: text))
        }

        /// What the target was written since the last look, one string a write.
        func writes() throws -> [String] {
            var writes: [String] = []
            while let buffer = try target.readOutbound(as: ByteBuffer.self) { writes.append(String(buffer: buffer)) }
            return writes
        }

        func advance(_ milliseconds: Int64) {
            loop.advanceTime(by: .milliseconds(milliseconds))
        }
    }

    @Test func aDelayHoldsEachChunkItsLengthExactly() throws {
        var faults = ProxyFaults()
        faults.apply(.delay(.milliseconds(50), jitter: .zero))
        let rig = try Rig(faults)
        try rig.send("one")
        rig.advance(20)
        try rig.send("two")
        rig.advance(29)
        #expect(try rig.writes().isEmpty, "nothing before 50 ms")
        rig.advance(1)
        #expect(try rig.writes() == ["one"])
        rig.advance(19)
        #expect(try rig.writes().isEmpty)
        rig.advance(1)
        #expect(try rig.writes() == ["two"], "each chunk is held from its own arrival")
    }

    /// Jitter moves each chunk within ±jitter of the delay, as the seed draws, never reordering.
    @Test func jitterStaysWithinItsBoundsAndKeepsOrder() throws {
        var faults = ProxyFaults()
        faults.apply(.delay(.milliseconds(50), jitter: .milliseconds(10)))
        let rig = try Rig(faults)
        for index in 0..<20 { try rig.send("\(index),") }
        rig.advance(39)
        #expect(try rig.writes().isEmpty, "none before delay - jitter")
        rig.advance(21)
        #expect(try rig.writes().joined() == (0..<20).map { "\($0)," }.joined(), "all by delay + jitter, in order")
    }

    /// 32 KiB at 16 KiB/s: pieces of a twentieth of a second's worth, the rate's clock kept
    /// across them: half after one second, the last byte at 2 s less its own piece's time.
    @Test func aRatePacesThePieces() throws {
        var faults = ProxyFaults()
        faults.apply(.rate(16 * 1024))
        let rig = try Rig(faults)
        try rig.send(String(repeating: "x", count: 32 * 1024))
        var received = try rig.writes().joined().count
        #expect(received == 16 * 1024 / 20, "the first piece goes at once")
        rig.advance(1000)
        received += try rig.writes().joined().count
        #expect((16 * 1024...16 * 1024 + 819).contains(received), "\(received) bytes after 1 s")
        rig.advance(998)
        received += try rig.writes().joined().count
        #expect(received < 32 * 1024, "\(received) bytes before the last piece is due")
        rig.advance(2)
        received += try rig.writes().joined().count
        #expect(received == 32 * 1024)
    }

    /// `slice 1..3 every 10ms`: writes of 1 to 3 bytes (the seed's draw), one each 10 ms.
    @Test func slicesCutAndSpaceTheWrites() throws {
        var faults = ProxyFaults()
        faults.apply(.slice(min: 1, max: 3, every: .milliseconds(10)))
        let rig = try Rig(faults)
        let text = "abcdefghijklmnopqrstuvwxyz0123"
        try rig.send(text)
        var writes = try rig.writes()
        #expect(writes.count == 1, "one write at once, then one every 10 ms")
        for _ in 0..<30 {
            rig.advance(9)
            #expect(try rig.writes().isEmpty)
            rig.advance(1)
            writes += try rig.writes()
        }
        #expect(writes.joined() == text)
        #expect(writes.allSatisfy { (1...3).contains($0.count) }, "\(writes.map(\.count))")
        #expect(Set(writes.map(\.count)).count > 1, "the sizes are drawn, not fixed")
    }

    @Test func holdKeepsEverythingUntilReleaseThenSendsItInOrder() throws {
        let rig = try Rig()
        rig.pump.apply(.hold)
        for index in 0..<5 { try rig.send("\(index)") }
        rig.advance(10_000)
        #expect(try rig.writes().isEmpty)
        rig.pump.apply(.release)
        #expect(try rig.writes().joined() == "01234")
    }

    /// `cut after 5`: the fifth byte is the last forwarded, and the link is asked to cut.
    @Test func cutAfterStopsAtTheByte() throws {
        let rig = try Rig()
        var cut = false
        rig.pump.onCutAfter = { cut = true }
        rig.pump.apply(.cutAfter(5))
        try rig.send("abc")
        #expect(try rig.writes() == ["abc"] && !cut)
        try rig.send("defgh")
        #expect(try rig.writes() == ["de"])
        #expect(cut)
        try rig.send("ijk")
        #expect(try rig.writes().isEmpty, "nothing after the cut")
    }

    /// The source's FIN is passed on once the delayed queue is forwarded, not before.
    @Test func aFINWaitsForTheQueue() throws {
        var faults = ProxyFaults()
        faults.apply(.delay(.milliseconds(30), jitter: .zero))
        let rig = try Rig(faults)
        try rig.send("last")
        rig.source.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        rig.advance(29)
        #expect(rig.target.isActive, "still open while bytes wait")
        rig.advance(1)
        #expect(try rig.writes() == ["last"])
        #expect(!rig.target.isActive, "its output closed once the queue was forwarded")
    }
}
