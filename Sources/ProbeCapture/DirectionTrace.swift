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
    /// The stream's bytes; empty when `payloadsTruncated`, as the capture did not keep them.
    public private(set) var stream: [UInt8] = []
    /// How many stream bytes the capture saw (holes not counted); `stream.count` unless truncated.
    public private(set) var byteCount = 0
    /// Only part of some payloads is at hand (cut by `--snaplen`, or read back as a prefix):
    /// lengths and flags can be judged, the stream's content cannot.
    public private(set) var payloadsTruncated = false
    public private(set) var retransmissions = 0
    /// Stream offsets where bytes are missing from the capture.
    public private(set) var holes: [Range<Int>] = []

    public init(segments: [TCPSegment]) {
        self.segments = segments
        let carrying = segments.indices.filter { segments[$0].length > 0 }
        guard let reference = segments.first(where: { $0.flags.contains(.syn) }).map({ $0.sequence &+ 1 })
                ?? carrying.first.map({ segments[$0].sequence }) else { return }
        // Relative sequence numbers, safe across wrap-around; segments in stream order (then
        // capture order), sorted as indices so that no segment is copied to sort it.
        func offset(_ index: Int) -> Int { Int(Int32(bitPattern: segments[index].sequence &- reference)) }
        let ordered = carrying.sorted { (offset($0), $0) < (offset($1), $1) }
        var next = ordered.first.map { min(0, offset($0)) } ?? 0
        payloadsTruncated = carrying.contains { segments[$0].isTruncated }
        if !payloadsTruncated { stream.reserveCapacity(carrying.reduce(0) { $0 + segments[$1].length }) }
        dataSegments.reserveCapacity(carrying.count)
        for index in ordered {
            let segment = segments[index]
            let offset = offset(index)
            let end = offset + segment.length
            if end <= next {
                retransmissions += 1
                continue
            }
            if offset > next { holes.append(next..<offset) }
            let start = max(offset, next)
            if !payloadsTruncated { stream += segment.payload[(start - offset)...] }
            dataSegments.append(DataSegment(range: byteCount..<(byteCount + end - start), segment: segment))
            byteCount += end - start
            next = end
        }
    }

    /// The data segments that carried any of the stream bytes in `range`, found by binary
    /// search: `dataSegments` cover the stream in order, without overlaps.
    public func carriers(of range: Range<Int>) -> ArraySlice<DataSegment> {
        var low = 0, high = dataSegments.count
        while low < high {
            let middle = (low + high) / 2
            if dataSegments[middle].range.upperBound <= range.lowerBound { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < dataSegments.count, dataSegments[end].range.lowerBound < range.upperBound { end += 1 }
        return dataSegments[low..<end]
    }

    public var hasFIN: Bool { segments.contains { $0.flags.contains(.fin) } }
    public var hasRST: Bool { segments.contains { $0.flags.contains(.rst) } }
    /// True when a segment (other than a RST) advertised a window of zero.
    public var advertisedZeroWindow: Bool { segments.contains { $0.window == 0 && !$0.flags.contains(.rst) } }
}
