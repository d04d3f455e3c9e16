import ProbeCapture
@testable import ProbeRunner
import Testing

/// The wire note of a split send, judged on a trace made by hand.
@Suite struct InjectedSplitTests {
    /// The probe's segments: each payload at its time, one after another from sequence 1.
    private func trace(_ pieces: [(String, Double)]) -> DirectionTrace {
        var sequence: UInt32 = 1
        let segments = pieces.map { piece, time -> TCPSegment in
            defer { sequence += UInt32(piece.utf8.count) }
            return TCPSegment(timestamp: time, sourceAddress: "127.0.0.1", destinationAddress: "127.0.0.1", sourcePort: 40000,
                              destinationPort: 7000, sequence: sequence, acknowledgement: 1, flags: .ack, window: 512, payload: Array(piece.utf8))
        }
        return DirectionTrace(segments: segments)
    }

    @Test func theNoteNamesTheSmallestGapBetweenPieces() {
        let verdict = InjectedSplit.verdict(cuts: [3, 5], on: trace([("msg", 0), (":h", 0.010), ("ello\r\n", 0.030)]))
        #expect(verdict == "all 3 writes left as separate segments, at least 10ms apart (verified on the wire)")
        #expect(InjectedSplit.verdict(cuts: [3], on: trace([("msg", 0), (":hello", 0.005)]))
                == "all 2 writes left as separate segments, 5ms apart (verified on the wire)")
    }

    @Test func aCutInsideASegmentIsNotVerified() {
        #expect(InjectedSplit.verdict(cuts: [3, 5], on: trace([("msg:h", 0), ("ello", 0.01)]))
                == "NOT verified: 1 of the 2 boundaries between writes did not start a segment (at stream offsets 3): the kernel coalesced writes")
    }
}
