/// Tells, segment by segment in capture order, which segments of one TCP connection carry data
/// their sender had sent before, by the rules of Wireshark's TCP analysis: what its
/// `tcp.analysis.retransmission` flags (retransmissions, fast retransmissions after two
/// duplicate ACKs, and spurious ones of bytes already acknowledged), and not what it calls
/// out of order (a segment below the highest sequence number that came within the first
/// round trip's time of it), a keep-alive or a zero-window probe.
///
/// It sees what the capture saw: a segment lost before the capture point shows only in its
/// second copy, which is counted because the sender had gone past it (later data, or an ACK
/// that announced a higher sequence number). Fed both directions, it knows the receiver's
/// ACKs; fed one, only what that one sent.
package struct RetransmissionAnalysis: Sendable {
    /// What one side has sent, as the analysis tracks it.
    private struct Side: Sendable {
        /// The highest sequence number plus length (SYN and FIN count one) sent so far.
        var nextSequence: UInt32?
        /// When `nextSequence` last moved.
        var nextSequenceTime = 0.0
        var lastAck: UInt32?
        /// When this side's last segment was captured.
        var lastAckTime = 0.0
        var window: Int?
        /// Duplicate ACKs in a row.
        var duplicateAcks = 0
    }

    /// Wireshark's out-of-order window before the first round trip is known: 3 ms.
    static let defaultOutOfOrderWindow = 0.003
    /// How soon after the duplicate ACKs a resend of the segment they ask for is a fast retransmission.
    static let fastRetransmissionWindow = 0.020

    private var sides: [Int: Side] = [:]
    /// When the latest SYN (not a SYN/ACK) was captured, until the first round trip is measured.
    private var latestSYN: Double?
    /// From the latest SYN to the first ACK without SYN: Wireshark's initial round-trip time
    /// (`tcp.analysis.initial_rtt`).
    private var firstRoundTrip: Double?

    package init() {}

    /// Whether `segment`, captured after every segment given before, carries data and is a
    /// retransmission.
    package mutating func isRetransmission(_ segment: TCPSegment) -> Bool {
        let own = segment.sourcePort
        let other = segment.destinationPort
        var side = sides[own] ?? Side()
        let reverse = sides[other] ?? Side()
        defer { sides[own] = side }
        let flags = segment.flags
        let length = UInt32(truncatingIfNeeded: segment.length)
        let sequence = segment.sequence
        let control = flags.contains(.syn) || flags.contains(.fin) || flags.contains(.rst)
        noteRoundTrip(segment)

        let zeroWindowProbe = length == 1 && side.nextSequence == sequence && reverse.window == 0
        let keepAlive = !zeroWindowProbe && length <= 1 && side.nextSequence.map { $0 &- 1 == sequence } == true && !control
        if !zeroWindowProbe, !keepAlive, length == 0, let window = side.window, window != 0, segment.window == window,
           side.nextSequence == sequence, side.lastAck == segment.acknowledgement, !control {
            side.duplicateAcks += 1
        }
        if segment.acknowledgement != side.lastAck { side.duplicateAcks = 0 }

        // Wireshark judges SYNs and FINs sent again too; here only segments with data count.
        let resent = length > 0 && !keepAlive && judge(segment, length: length, side: side, reverse: reverse)

        let end = sequence &+ length &+ (flags.contains(.syn) || flags.contains(.fin) ? 1 : 0)
        if !zeroWindowProbe, side.nextSequence.map({ Self.before($0, end) }) ?? true {
            side.nextSequence = end
            side.nextSequenceTime = segment.timestamp
        }
        side.window = segment.window
        side.lastAck = segment.acknowledgement
        side.lastAckTime = segment.timestamp
        return resent
    }

    /// A segment with data: sent again (fast, spurious or after a time-out), or new or out of order.
    private func judge(_ segment: TCPSegment, length: UInt32, side: Side, reverse: Side) -> Bool {
        let sequence = segment.sequence
        var notAdvanced = side.nextSequence.map { Self.before(sequence, $0) } ?? false
        // One byte below: after a zero-window probe, more data from the probe's byte on.
        if length > 1, side.nextSequence.map({ $0 &- 1 == sequence }) == true { notAdvanced = false }
        if length > 0, let acked = reverse.lastAck, !Self.before(acked, sequence &+ length) {
            return true // spurious: every byte of it was acknowledged already
        }
        if notAdvanced, reverse.duplicateAcks >= 2, reverse.lastAck == sequence,
           segment.timestamp - reverse.lastAckTime < Self.fastRetransmissionWindow {
            return true
        }
        let closes: UInt32 = segment.flags.contains(.syn) || segment.flags.contains(.fin) ? 1 : 0
        if notAdvanced, segment.timestamp - side.nextSequenceTime < (firstRoundTrip ?? Self.defaultOutOfOrderWindow),
           side.nextSequence != sequence &+ length &+ closes {
            return false // out of order
        }
        return notAdvanced
    }

    /// Measures the first round trip: from the latest SYN to the first ACK without SYN (the
    /// handshake's last), wherever the capture sits.
    private mutating func noteRoundTrip(_ segment: TCPSegment) {
        guard firstRoundTrip == nil else { return }
        if segment.flags.contains(.syn) {
            if !segment.flags.contains(.ack) { latestSYN = segment.timestamp }
        } else if segment.flags.contains(.ack), let latestSYN {
            firstRoundTrip = segment.timestamp - latestSYN
        }
    }

    /// Whether sequence number `a` comes before `b`, across wrap-around.
    private static func before(_ a: UInt32, _ b: UInt32) -> Bool {
        Int32(bitPattern: a &- b) < 0
    }
}
