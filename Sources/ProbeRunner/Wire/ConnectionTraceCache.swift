import ProbeCapture

/// The traces wire checks have built, kept so that the next check of the same connection only
/// adds the segments captured since: `assert wire` after each of many round trips would
/// otherwise rebuild the whole trace every time, a cost that grows with the square of the run.
/// A trace holding more than `largestKeptStream` bytes is not kept, so a bulk transfer's
/// payload is not held for the rest of the run (each check rebuilds it, as before).
struct ConnectionTraceCache {
    static let largestKeptStream = 64 << 20

    private struct Key: Hashable {
        var probePort: Int
        var peerPort: Int
        var payloadPrefix: Int
    }

    private var entries: [Key: (trace: ConnectionTrace, consumed: Int)] = [:]

    /// How many stream bytes the kept traces hold.
    var keptStreamBytes: Int {
        entries.values.reduce(0) { $0 + $1.trace.fromPeer.stream.count + $1.trace.fromProbe.stream.count }
    }

    /// The trace of the connection between the two ports in `segments`: everything the capture
    /// has written so far, each payload cut to `payloadPrefix` bytes.
    mutating func trace(of segments: [TCPSegment], probePort: Int, peerPort: Int, payloadPrefix: Int) -> ConnectionTrace {
        let key = Key(probePort: probePort, peerPort: peerPort, payloadPrefix: payloadPrefix)
        var trace: ConnectionTrace
        // Taken out of the dictionary first, so that its arrays have one owner and grow in place.
        if var kept = entries.removeValue(forKey: key), kept.consumed <= segments.count {
            kept.trace.add(segments[kept.consumed...]) // grown where it is: `kept` is its only owner
            trace = kept.trace
        } else {
            trace = ConnectionTrace(segments: segments, probePort: probePort, peerPort: peerPort)
        }
        if trace.fromPeer.stream.count + trace.fromProbe.stream.count <= Self.largestKeptStream {
            entries[key] = (trace, segments.count)
        }
        return trace
    }
}
