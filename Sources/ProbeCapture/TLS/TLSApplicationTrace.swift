/// One direction of a TLS connection as its application sees it, for the wire checks that read
/// lines: a trace whose "segments" are the plaintext sent before TLS began (the STARTTLS
/// exchange, as its TCP segments) and then each application data record, carrying its
/// decrypted content and timed by the TCP segment that completed it.
package struct TLSApplicationTrace: Sendable {
    package let trace: DirectionTrace
    /// Each record's start: in `trace`'s stream (plaintext), and in the TCP stream.
    package let recordStarts: [(plaintext: Int, tcp: Int)]

    /// Builds the trace of `records`, which TLS began sending at `tlsStart` of `tcp`'s stream;
    /// without `plaintextBefore`, of the records alone (what `records OP N` counts).
    package init(records: [TLSConversation.Record], tlsStart: Int, tcp: DirectionTrace, plaintextBefore: Bool = true) {
        var segments: [TCPSegment] = []
        var starts: [(Int, Int)] = []
        for carrier in tcp.dataSegments where plaintextBefore && carrier.range.lowerBound < tlsStart {
            var segment = carrier.segment
            segment.payload = Array(segment.payload.prefix(tlsStart - carrier.range.lowerBound))
            segment.length = segment.payload.count
            segment.sequence = UInt32(truncatingIfNeeded: carrier.range.lowerBound)
            segments.append(segment)
        }
        var offset = tlsStart
        for record in records where record.contentType == .applicationData && !record.plaintext.isEmpty {
            guard let last = tcp.carriers(of: (record.streamRange.upperBound - 1)..<record.streamRange.upperBound).last?.segment else { continue }
            var segment = last
            segment.sequence = UInt32(truncatingIfNeeded: offset)
            segment.payload = record.plaintext
            segment.length = record.plaintext.count
            segment.flags = [.psh, .ack]
            segments.append(segment)
            starts.append((offset, record.streamRange.lowerBound))
            offset += record.plaintext.count
        }
        trace = DirectionTrace(segments: segments)
        recordStarts = starts
    }
}
