import ProbeScript
import Testing
@testable import ProbeCapture

/// A trace grown by adding segments as they are captured must be the trace built from all of
/// them at once, whatever the segments do: this checks every way of cutting each sequence in two
/// and adding them one at a time.
@Suite struct TraceGrowthTests {
    /// A segment from the server: its sequence number, payload and flags.
    typealias Shape = (sequence: UInt32, payload: String, flags: TCPSegment.Flags)

    static let sequences: [(String, [Shape])] = [
        ("in order, with ACKs and a FIN", [(100, "", [.syn, .ack]), (101, "hello ", .ack), (107, "", .ack), (107, "world", [.psh, .ack]), (112, "", [.fin, .ack])]),
        ("a retransmission after later data", [(100, "", [.syn, .ack]), (101, "abc", .ack), (104, "def", .ack), (101, "abc", .ack), (107, "gh", .ack)]),
        ("reordered", [(100, "", [.syn, .ack]), (106, "world", .ack), (101, "hello", .ack), (111, "!", .ack)]),
        ("a hole", [(100, "", [.syn, .ack]), (101, "ab", .ack), (110, "xyz", .ack), (113, "q", .ack)]),
        ("a partial overlap", [(100, "", [.syn, .ack]), (101, "abcd", .ack), (103, "cdef", .ack), (107, "g", .ack)]),
        ("a SYN captured after data, its numbers not where the data began", [(101, "abc", .ack), (97, "", [.syn, .ack]), (104, "def", .ack)]),
        ("no SYN", [(5000, "abc", .ack), (5003, "def", .ack), (5006, "", [.rst])]),
        ("wrapping sequence numbers", [(UInt32.max - 3, "", [.syn, .ack]), (UInt32.max - 2, "abc", .ack), (0, "def", .ack), (3, "g", .ack)]),
        ("a payload cut short", [(100, "", [.syn, .ack]), (101, "abc", .ack), (104, "defghij", .ack), (111, "k", .ack)]),
    ]

    /// Everything a check reads of a direction.
    static func fingerprint(_ trace: DirectionTrace) -> String {
        "stream \(trace.stream) bytes \(trace.byteCount) data \(trace.dataSegments.map(\.range)) holes \(trace.holes) "
            + "retransmissions \(trace.retransmissions) truncated \(trace.payloadsTruncated) segments \(trace.segments.count) "
            + "FIN \(trace.hasFIN) RST \(trace.hasRST) zero windows \(trace.zeroWindows) largest \(String(describing: trace.largestDataSegment?.range))"
    }

    static func segments(_ shapes: [Shape]) -> [TCPSegment] {
        let builder = PacketBuilder()
        return shapes.enumerated().compactMap { index, shape in
            var packet = builder.packet(fromClient: false, sequence: shape.sequence, flags: shape.flags, payload: Array(shape.payload.utf8), at: Double(index))
            if shape.payload == "defghij" { packet.data.removeLast(4) } // captured with a short snap length
            return PacketDecoder.segment(packet)
        }
    }

    @Test(arguments: sequences.map(\.0))
    func aGrownTraceIsTheTraceOfAllSegments(_ name: String) {
        let all = Self.segments(Self.sequences.first { $0.0 == name }!.1)
        let whole = Self.fingerprint(DirectionTrace(segments: all))
        for cut in 0...all.count {
            var grown = DirectionTrace(segments: Array(all[..<cut]))
            grown.add(Array(all[cut...]))
            #expect(Self.fingerprint(grown) == whole, "cut after \(cut) segments")
        }
        var oneByOne = DirectionTrace(segments: [])
        for segment in all { oneByOne.add([segment]) }
        #expect(Self.fingerprint(oneByOne) == whole, "one segment at a time")
    }

    @Test func flagsWindowsAndTheLargestSegmentAreKeptAsItGrows() {
        let builder = PacketBuilder()
        let all = [
            builder.packet(fromClient: false, sequence: 100, flags: [.syn, .ack], at: 0),
            builder.packet(fromClient: false, sequence: 101, flags: .ack, payload: Array("abc".utf8), at: 1),
            builder.packet(fromClient: false, sequence: 104, flags: .ack, window: 0, at: 2),
            builder.packet(fromClient: false, sequence: 104, flags: .ack, payload: Array("defg".utf8), at: 3),
            builder.packet(fromClient: false, sequence: 108, flags: .ack, payload: Array("hijk".utf8), at: 4),
            builder.packet(fromClient: false, sequence: 112, flags: .ack, window: 0, at: 5),
            builder.packet(fromClient: false, sequence: 112, flags: [.rst], window: 0, at: 6),
        ].compactMap(PacketDecoder.segment)
        var grown = DirectionTrace(segments: [])
        for segment in all { grown.add([segment]) }
        #expect(Self.fingerprint(grown) == Self.fingerprint(DirectionTrace(segments: all)))
        #expect(grown.zeroWindows == 2, "a RST's zero window does not count")
        #expect(grown.largestDataSegment?.range == 3..<7, "the first of the two longest")
        #expect(grown.hasRST && !grown.hasFIN)
    }

    @Test func aConnectionTraceKeepsToItsOwnPortsAsItGrows() {
        let mine = Self.segments(Self.sequences[0].1)
        // Another client of the same server, both ways: the server's port alone does not make a segment ours.
        let other = PacketBuilder(clientPort: 40001)
        let noise = [other.packet(fromClient: true, sequence: 9, flags: .ack, payload: Array("noise".utf8), at: 0.5),
                     other.packet(fromClient: false, sequence: 77, flags: .ack, payload: Array("reply".utf8), at: 0.6)].compactMap(PacketDecoder.segment)
        let captured = [mine[0]] + noise + mine.dropFirst()
        var grown = ConnectionTrace(segments: Array(captured.prefix(2)), probePort: 40000, peerPort: 7000)
        grown.add(captured.dropFirst(2))
        #expect(grown.segments.count == mine.count)
        #expect(Self.fingerprint(grown.fromPeer) == Self.fingerprint(DirectionTrace(segments: mine)))
        #expect(grown.fromPeer.stream == Array("hello world".utf8))
        #expect(grown.fromProbe.segments.isEmpty)
    }

    /// A segment lost before the capture saw it, sent again: its first copy is not in the
    /// capture, but the sender's ACK after it had passed its sequence number (as a lossy link
    /// below the probe's side makes it). Wireshark flags it; so does the trace.
    @Test func aSegmentBelowWhatTheSendersAckPassedIsARetransmission() {
        let segments = Self.segments([(100, "", [.syn, .ack]), (107, "", .ack), (101, "pong\r\n", .ack), (107, "pong\r\n", .ack)])
        let trace = DirectionTrace(segments: segments)
        #expect(String(decoding: trace.stream, as: UTF8.self) == "pong\r\npong\r\n")
        #expect(trace.retransmissions == 1)
        #expect(trace.retransmitted.map(\.sequence) == [101])
        #expect(trace.holes.isEmpty)
        #expect(WireEvaluator.evaluate(.retransmissions(.equal, 1), on: trace).passed)
        #expect(!WireEvaluator.evaluate(.retransmissions(.equal, 0), on: trace).passed)
    }

    /// A retransmission re-packetised to overlap the end of what was sent and carry new bytes:
    /// the repeated bytes count once, in the stream, its byte count and the segments' ranges;
    /// it is a retransmission all the same, as Wireshark flags it.
    @Test func aPartlyOverlappingRetransmissionAddsOnlyItsNewBytes() {
        let segments = Self.segments([(100, "", [.syn, .ack]), (101, "line1\r", .ack), (105, "1\r\nx\r\n", .ack), (111, "y\r\n", .ack)])
        let trace = DirectionTrace(segments: segments)
        #expect(String(decoding: trace.stream, as: UTF8.self) == "line1\r\nx\r\ny\r\n")
        #expect(trace.byteCount == 13)
        #expect(trace.dataSegments.map(\.range) == [0..<6, 6..<10, 10..<13])
        #expect(trace.retransmissions == 1, "it carried bytes sent before, with new ones")
        #expect(trace.holes.isEmpty)
        // So a peer that framed every line right passes the terminator check.
        #expect(WireEvaluator.evaluate(.terminator(.crlf), on: trace).passed)
        #expect(WireEvaluator.evaluate(.bytes(.equal, 13), on: trace).passed)
    }

    /// Whether a zero window was advertised, as `tcpprobe show` says it: not by a trace whose
    /// windows were all open, by one with a zero window, and not by a RST that carries zero.
    @Test func aZeroWindowIsAdvertisedOnlyByASegmentThatSaysSo() {
        let builder = PacketBuilder()
        let open = DirectionTrace(segments: builder.serverSends(["a\r\n", "b\r\n"]))
        #expect(!open.advertisedZeroWindow && open.zeroWindows == 0)
        let closing = [builder.packet(fromClient: false, sequence: 100, flags: .ack, payload: Array("a".utf8), window: 0, at: 0),
                       builder.packet(fromClient: false, sequence: 101, flags: .rst, window: 0, at: 1)].compactMap(PacketDecoder.segment)
        let zero = DirectionTrace(segments: closing)
        #expect(zero.advertisedZeroWindow && zero.zeroWindows == 1)
        #expect(!DirectionTrace(segments: Array(closing.dropFirst())).advertisedZeroWindow, "a RST's window is not advertised")
    }
}
