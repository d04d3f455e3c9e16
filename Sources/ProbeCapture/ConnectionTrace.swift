/// Both directions of one TCP connection, picked from a capture by its two ports.
public struct ConnectionTrace: Sendable {
    public var probePort: Int
    public var peerPort: Int
    public var fromPeer: DirectionTrace
    public var fromProbe: DirectionTrace
    /// All the connection's segments in capture order.
    public var segments: [TCPSegment]

    public init(segments all: [TCPSegment], probePort: Int, peerPort: Int) {
        self.probePort = probePort
        self.peerPort = peerPort
        let mine = all.filter {
            ($0.sourcePort == probePort && $0.destinationPort == peerPort) || ($0.sourcePort == peerPort && $0.destinationPort == probePort)
        }
        segments = mine
        fromPeer = DirectionTrace(segments: mine.filter { $0.sourcePort == peerPort })
        fromProbe = DirectionTrace(segments: mine.filter { $0.sourcePort == probePort })
    }
}
