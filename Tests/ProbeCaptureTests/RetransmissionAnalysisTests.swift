import Testing
@testable import ProbeCapture

/// Wireshark's rules for data sent again, one behaviour a test, each over several inputs. The
/// sender is port 2 (sequence numbers from 1001), the receiver port 1; times in seconds.
@Suite struct RetransmissionAnalysisTests {
    private static func data(_ sequence: UInt32, _ length: Int, at time: Double, ack: UInt32 = 1) -> TCPSegment {
        TCPSegment(timestamp: time, sourceAddress: "b", destinationAddress: "a", sourcePort: 2, destinationPort: 1,
                   sequence: sequence, acknowledgement: ack, flags: .ack, window: 512, payload: [UInt8](repeating: 120, count: length))
    }

    private static func ack(_ acknowledgement: UInt32, at time: Double, window: Int = 512) -> TCPSegment {
        TCPSegment(timestamp: time, sourceAddress: "a", destinationAddress: "b", sourcePort: 1, destinationPort: 2,
                   sequence: 1, acknowledgement: acknowledgement, flags: .ack, window: window, payload: [])
    }

    /// A handshake whose first round trip takes `rtt`: the SYN, the SYN/ACK, the last ACK.
    private static func handshake(rtt: Double) -> [TCPSegment] {
        [TCPSegment(timestamp: 0, sourceAddress: "a", destinationAddress: "b", sourcePort: 1, destinationPort: 2,
                    sequence: 0, acknowledgement: 0, flags: .syn, window: 512, payload: []),
         TCPSegment(timestamp: rtt / 2, sourceAddress: "b", destinationAddress: "a", sourcePort: 2, destinationPort: 1,
                    sequence: 1000, acknowledgement: 1, flags: [.syn, .ack], window: 512, payload: []),
         ack(1001, at: rtt)]
    }

    /// Which of `segments` the analysis calls sent again, by index.
    private static func resent(_ segments: [TCPSegment]) -> [Int] {
        var analysis = RetransmissionAnalysis()
        return segments.indices.filter { analysis.isRetransmission(segments[$0]) }
    }

    /// A segment below the highest sequence number sent is sent again once the first round
    /// trip has passed since that number was reached; within it, it is out of order.
    @Test(arguments: [0.001, 0.010, 0.100])
    func belowTheHighestAfterTheFirstRoundTripIsARetransmission(_ rtt: Double) {
        let start = rtt * 2
        let base = Self.handshake(rtt: rtt) + [Self.data(1001, 100, at: start), Self.data(1101, 100, at: start)]
        #expect(Self.resent(base + [Self.data(1001, 100, at: start + rtt * 1.5)]) == [5])
        #expect(Self.resent(base + [Self.data(1001, 100, at: start + rtt * 0.5)]).isEmpty, "out of order")
        // Repeating the newest segment exactly is no reordering: sent again even within the round trip.
        #expect(Self.resent(base + [Self.data(1101, 100, at: start + rtt * 0.5)]) == [5])
    }

    /// With no handshake captured, the window is 3 ms.
    @Test(arguments: [(0.002, false), (0.004, true), (1.0, true)])
    func withoutAHandshakeTheOutOfOrderWindowIs3ms(_ late: Double, _ counted: Bool) {
        let segments = [Self.data(1001, 10, at: 0), Self.data(1011, 10, at: 0), Self.data(1001, 10, at: late)]
        #expect(Self.resent(segments) == (counted ? [2] : []), "\(late) s late")
    }

    /// The first copy lost before the capture: the sender's ACK announced a higher sequence
    /// number, so its only copy is below the highest.
    @Test(arguments: [1001, 1050] as [UInt32])
    func belowWhatTheSendersOwnAckAnnouncedIsSentAgain(_ sequence: UInt32) {
        let announcing = TCPSegment(timestamp: 1, sourceAddress: "b", destinationAddress: "a", sourcePort: 2, destinationPort: 1,
                                    sequence: 1100, acknowledgement: 1, flags: .ack, window: 512, payload: [])
        #expect(Self.resent([Self.data(1000, 1, at: 0.5), announcing, Self.data(sequence, 50, at: 2)]) == [2])
    }

    /// After two duplicate ACKs asking for a sequence number, its resend within 20 ms is a fast
    /// retransmission, even inside the out-of-order window; later, or after one duplicate, the
    /// window decides.
    @Test(arguments: [(2, 0.005, true), (3, 0.015, true), (1, 0.005, false), (2, 0.030, false)])
    func aResendAfterDuplicateAcksIsAFastRetransmission(_ duplicates: Int, _ after: Double, _ fast: Bool) {
        var segments = Self.handshake(rtt: 0.1)
        segments += (0..<4).map { Self.data(1001 + UInt32($0) * 100, 100, at: 0.2 + Double($0) * 0.001) }
        segments += (0...duplicates).map { Self.ack(1101, at: 0.25 + Double($0) * 0.001) }
        let last = segments.last!.timestamp
        segments.append(Self.data(1101, 100, at: last + after))
        // The sender's newest data is no older than the out-of-order window (0.1 s) here.
        #expect(Self.resent(segments) == (fast ? [segments.count - 1] : []), "\(duplicates) duplicates, \(after) s after")
    }

    /// Bytes every one of which the receiver had acknowledged are a spurious retransmission: counted.
    @Test(arguments: [(1001, true), (1051, true), (1101, false)] as [(UInt32, Bool)])
    func bytesAlreadyAcknowledgedAreASpuriousRetransmission(_ sequence: UInt32, _ counted: Bool) {
        let segments = [Self.data(1001, 50, at: 0), Self.data(1051, 50, at: 0), Self.ack(1101, at: 0.0005),
                        Self.data(sequence, 50, at: 0.001)]
        #expect(Self.resent(segments) == (counted ? [3] : []), "at \(sequence)")
    }

    /// A keep-alive (0 or 1 byte, one below the next sequence number) and a zero-window probe
    /// (1 byte at the next sequence number while the receiver's window is zero, repeated) are
    /// not retransmissions.
    @Test func keepAlivesAndZeroWindowProbesAreNot() {
        let sent = [Self.data(1001, 100, at: 0)]
        #expect(Self.resent(sent + [Self.data(1100, 1, at: 5), Self.data(1100, 1, at: 10)]).isEmpty)
        let shut = sent + [Self.ack(1101, at: 0.01, window: 0)]
        #expect(Self.resent(shut + [Self.data(1101, 1, at: 1), Self.data(1101, 1, at: 2), Self.data(1101, 1, at: 4)]).isEmpty)
        // Once the window opens, the byte comes again with more: new data, not a retransmission.
        #expect(Self.resent(shut + [Self.data(1101, 1, at: 1), Self.ack(1101, at: 1.5), Self.data(1101, 100, at: 2)]).isEmpty)
    }

    /// A connection trace counts each direction with the other's ACKs, as `show` marks them.
    @Test func theTraceCountsWhatShowMarks() {
        let segments = Self.handshake(rtt: 0.01) + [Self.data(1001, 100, at: 0.02), Self.data(1101, 100, at: 0.021),
                                                    Self.ack(1001, at: 0.03), Self.ack(1001, at: 0.031), Self.ack(1001, at: 0.032),
                                                    Self.data(1001, 100, at: 0.033), Self.data(1201, 100, at: 0.5), Self.data(1101, 100, at: 0.6)]
        let trace = ConnectionTrace(segments: segments, probePort: 1, peerPort: 2)
        #expect(trace.fromPeer.retransmitted.map(\.timestamp) == [0.033, 0.6])
        let marked = zip(segments, ConversationRenderer.analysisMarks(segments)).filter { $0.1.contains("[RETRANSMISSION]") }.map(\.0.timestamp)
        #expect(marked == [0.033, 0.6])
    }
}
