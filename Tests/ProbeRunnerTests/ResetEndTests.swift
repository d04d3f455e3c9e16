import ProbeCapture
import ProbeFraming
@testable import ProbeRunner
import Testing

/// The wire note of an HTTP/2 expect a RST decided, judged on a peer's stream made by hand.
@Suite struct ResetEndTests {
    private let settings = HTTP2Frame(type: 0x4, flags: 0, stream: 0, payload: []).encoded()
    private let goaway = HTTP2Frame(type: 0x7, flags: 0, stream: 0, payload: HTTP2Frame.bigEndian(0) + HTTP2Frame.bigEndian(1)).encoded()

    /// The peer's segments, one a piece, from sequence 1.
    private func trace(_ pieces: [[UInt8]]) -> DirectionTrace {
        var sequence: UInt32 = 1
        let segments = pieces.enumerated().map { index, piece -> TCPSegment in
            defer { sequence += UInt32(piece.count) }
            return TCPSegment(timestamp: Double(index) * 0.001, sourceAddress: "127.0.0.1", destinationAddress: "127.0.0.1", sourcePort: 8080,
                              destinationPort: 40000, sequence: sequence, acknowledgement: 1, flags: .ack, window: 512, payload: piece)
        }
        return DirectionTrace(segments: segments)
    }

    @Test func aGoawayTheProbeNeverReadIsNamed() {
        let verdict = ResetEnd.verdict(received: settings.count, on: trace([settings, goaway]))
        #expect(verdict == "a GOAWAY then RST, the GOAWAY lost: the wire holds 17 bytes from the peer that the RST discarded unread: "
                + "GOAWAY · PROTOCOL_ERROR · last stream 0")
    }

    @Test func aResetWithNothingUnreadSaysSo() {
        #expect(ResetEnd.verdict(received: settings.count, on: trace([settings]))
                == "the wire shows nothing the RST discarded: the peer reset without a GOAWAY")
        // Bytes that are no whole frame are shown as bytes.
        #expect(ResetEnd.verdict(received: settings.count, on: trace([settings, [0, 0, 9]])) == #"the peer reset: the wire holds 3 bytes from the peer that the RST discarded unread: hex"00 00 09""#)
    }
}
