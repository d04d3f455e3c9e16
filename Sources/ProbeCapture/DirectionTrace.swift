/// One direction of one TCP connection, reassembled: the byte stream, and which segment
/// carried which bytes. Retransmitted bytes are counted once; a hole means packets were
/// not captured, which makes any judgement of this direction inconclusive.
public struct DirectionTrace: Sendable {
    /// A data-bearing segment and the stream bytes it first delivered.
    public struct DataSegment: Sendable {
        public var range: Range<Int>
        public var segment: TCPSegment
    }

    /// Every segment of this direction, in capture order (handshake, ACKs, FIN, RST too).
    public private(set) var segments: [TCPSegment]
    public private(set) var dataSegments: [DataSegment] = []
    public private(set) var stream: [UInt8] = []
    public private(set) var retransmissions = 0
    /// Stream offsets where bytes are missing from the capture.
    public private(set) var holes: [Range<Int>] = []

    public init(segments: [TCPSegment]) {
        self.segments = segments
        let carrying = segments.filter { !$0.payload.isEmpty }
        guard let reference = segments.first(where: { $0.flags.contains(.syn) }).map({ $0.sequence &+ 1 })
                ?? carrying.first?.sequence else { return }
        // Relative sequence numbers, safe across wrap-around, in stream order.
        let ordered = carrying.enumerated().map { (index, segment) in
            (offset: Int(Int32(bitPattern: segment.sequence &- reference)), index: index, segment: segment)
        }.sorted { ($0.offset, $0.index) < ($1.offset, $1.index) }
        var next = ordered.first.map { min(0, $0.offset) } ?? 0
        stream.reserveCapacity(carrying.reduce(0) { $0 + $1.payload.count })
        for (offset, _, segment) in ordered {
            let end = offset + segment.payload.count
            if end <= next {
                retransmissions += 1
                continue
            }
            if offset > next { holes.append(next..<offset) }
            let start = max(offset, next)
            stream += segment.payload[(start - offset)...]
            let streamStart = stream.count - (end - start)
            dataSegments.append(DataSegment(range: streamStart..<stream.count, segment: segment))
            next = end
        }
    }

    public var hasFIN: Bool { segments.contains { $0.flags.contains(.fin) } }
    public var hasRST: Bool { segments.contains { $0.flags.contains(.rst) } }
    /// True when a segment (other than a RST) advertised a window of zero.
    public var advertisedZeroWindow: Bool { segments.contains { $0.window == 0 && !$0.flags.contains(.rst) } }
}
