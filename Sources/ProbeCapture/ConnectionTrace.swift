/// Both directions of one TCP connection, picked from a capture by its two ports.
package struct ConnectionTrace: Sendable {
    package var probePort: Int
    package var peerPort: Int
    package var fromPeer = DirectionTrace(segments: [])
    package var fromProbe = DirectionTrace(segments: [])
    /// All the connection's segments in capture order.
    package var segments: [TCPSegment] = []
    /// Judges which segments were sent again, with both directions' ACKs.
    private var analysis = RetransmissionAnalysis()

    package init(segments all: [TCPSegment], probePort: Int, peerPort: Int) {
        self.probePort = probePort
        self.peerPort = peerPort
        add(all)
    }

    /// Adds this connection's segments among `captured`, which come after those already added.
    package mutating func add(_ captured: some Collection<TCPSegment>) {
        let mine = captured.filter {
            ($0.sourcePort == probePort && $0.destinationPort == peerPort) || ($0.sourcePort == peerPort && $0.destinationPort == probePort)
        }
        segments += mine
        let resent = mine.filter { analysis.isRetransmission($0) }
        fromPeer.add(mine.filter { $0.sourcePort == peerPort }, retransmitted: resent.filter { $0.sourcePort == peerPort })
        fromProbe.add(mine.filter { $0.sourcePort == probePort }, retransmitted: resent.filter { $0.sourcePort == probePort })
    }
}
