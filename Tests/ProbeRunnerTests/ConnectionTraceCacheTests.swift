import ProbeCapture
import Testing
@testable import ProbeRunner

/// Wire checks keep their connection's trace and add only what was captured since; the kept
/// trace must read as a fresh one, and a bulk transfer's payload must not stay behind.
@Suite struct ConnectionTraceCacheTests {
    static func segment(_ sequence: UInt32, _ payload: [UInt8], fromPeer: Bool = true, flags: TCPSegment.Flags = .ack) -> TCPSegment {
        TCPSegment(timestamp: Double(sequence), sourceAddress: "127.0.0.1", destinationAddress: "127.0.0.1",
                   sourcePort: fromPeer ? 7000 : 40000, destinationPort: fromPeer ? 40000 : 7000,
                   sequence: sequence, acknowledgement: 1, flags: flags, window: 512, payload: payload)
    }

    @Test func aKeptTraceGrowsWithTheCaptureAndReadsAsAFreshOne() {
        var cache = ConnectionTraceCache()
        var captured = [Self.segment(99, [], flags: [.syn, .ack])]
        for round in 0..<5 {
            captured.append(Self.segment(100 + 3 * UInt32(round), Array("ab\n".utf8)))
            captured.append(Self.segment(1, [], fromPeer: false))
            let kept = cache.trace(of: captured, probePort: 40000, peerPort: 7000, payloadPrefix: .max)
            let fresh = ConnectionTrace(segments: captured, probePort: 40000, peerPort: 7000)
            #expect(kept.fromPeer.stream == fresh.fromPeer.stream)
            #expect(kept.fromPeer.dataSegments.map(\.range) == fresh.fromPeer.dataSegments.map(\.range))
            #expect(kept.segments.count == fresh.segments.count)
        }
        #expect(cache.trace(of: captured, probePort: 40000, peerPort: 7000, payloadPrefix: .max).fromPeer.stream.count == 15)
        // A capture read again from its start (fewer segments than the kept trace has seen) is traced afresh.
        let restarted = Array(captured.prefix(3))
        #expect(cache.trace(of: restarted, probePort: 40000, peerPort: 7000, payloadPrefix: .max).fromPeer.stream == Array("ab\n".utf8))
    }

    @Test func aTraceOverTheKeptSizeIsRebuiltEachTime() {
        var cache = ConnectionTraceCache()
        let big = [Self.segment(99, [], flags: [.syn, .ack]), Self.segment(100, [UInt8](repeating: 7, count: ConnectionTraceCache.largestKeptStream + 1))]
        #expect(cache.trace(of: big, probePort: 40000, peerPort: 7000, payloadPrefix: .max).fromPeer.byteCount == ConnectionTraceCache.largestKeptStream + 1)
        #expect(cache.keptStreamBytes == 0)
        let small = [Self.segment(99, [], flags: [.syn, .ack]), Self.segment(100, Array("ab\n".utf8))]
        _ = cache.trace(of: small, probePort: 40000, peerPort: 7000, payloadPrefix: .max)
        #expect(cache.keptStreamBytes == 3)
    }
}
