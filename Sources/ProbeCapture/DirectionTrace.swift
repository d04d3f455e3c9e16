/// One direction of one TCP connection, reassembled: the byte stream, and which segment
/// carried which bytes. Retransmitted bytes are counted once; a hole means packets were
/// not captured, which makes any judgement of this direction inconclusive.
package struct DirectionTrace: Sendable {
    /// A data-bearing segment and the stream bytes it first delivered.
    package struct DataSegment: Sendable {
        package var range: Range<Int>
        package var segment: TCPSegment
    }

    /// This trace, as grown in place: a trace built or rebuilt from all its segments gets a new
    /// one, so `WireProgress` made on it is not taken for another's.
    package private(set) var id = UInt64.random(in: .min ... .max)
    /// Every segment of this direction, in capture order (handshake, ACKs, FIN, RST too).
    package private(set) var segments: [TCPSegment] = []
    package private(set) var dataSegments: [DataSegment] = []
    /// The stream's bytes; empty when `payloadsTruncated`, as the capture did not keep them.
    package private(set) var stream: [UInt8] = []
    /// How many stream bytes the capture saw (holes not counted); `stream.count` unless truncated.
    package private(set) var byteCount = 0
    /// Only part of some payloads is at hand (cut by `--snaplen`, or read back as a prefix):
    /// lengths and flags can be judged, the stream's content cannot.
    package private(set) var payloadsTruncated = false
    /// The data segments sent again, in capture order, as Wireshark's tcp.analysis.retransmission
    /// flags them (`RetransmissionAnalysis`): judged with the other direction's ACKs when a
    /// `ConnectionTrace` adds them, else from this direction alone.
    package private(set) var retransmitted: [TCPSegment] = []
    /// Judges this direction's segments when no one else does.
    private var ownAnalysis = RetransmissionAnalysis()
    package var retransmissions: Int { retransmitted.count }
    /// Stream offsets where bytes are missing from the capture.
    package private(set) var holes: [Range<Int>] = []

    /// Where relative sequence numbers start: after the SYN, or at the first data segment.
    private var reference: (sequence: UInt32, fromSYN: Bool)?
    /// The stream offset up to which bytes have been delivered.
    private var next = 0
    /// The greatest offset of a data segment traced so far.
    private var furthestOffset = Int.min

    package init(segments: [TCPSegment]) {
        add(segments)
    }

    /// Reassembles `segments`, counting no retransmission.
    private init(reassembling segments: [TCPSegment]) {
        self.segments = segments
        scanFlags(segments)
        trace(from: 0)
    }

    /// Adds segments captured after those already traced. When they carry on the stream (none
    /// starts before a segment already traced, and none is a late SYN), the trace grows in
    /// place, so a check after each of many round trips costs what the new segments do;
    /// otherwise it is rebuilt from every segment. Either way it is what a trace built from all
    /// of them at once would be.
    ///
    /// `retransmitted` names those of `new` that were sent again, as judged with both
    /// directions; without it, this direction judges its own.
    package mutating func add(_ new: [TCPSegment], retransmitted judged: [TCPSegment]? = nil) {
        guard !new.isEmpty else { return }
        retransmitted += judged ?? new.filter { ownAnalysis.isRetransmission($0) }
        let first = segments.count
        segments += new
        if let reference {
            let lateSYN = !reference.fromSYN && new.contains { $0.flags.contains(.syn) }
            let carriesOn = new.allSatisfy { $0.length == 0 || offset($0, from: reference.sequence) >= furthestOffset }
            if lateSYN || !carriesOn {
                let (kept, analysis) = (retransmitted, ownAnalysis)
                self = DirectionTrace(reassembling: segments)
                (retransmitted, ownAnalysis) = (kept, analysis)
                return
            }
        }
        scanFlags(new)
        trace(from: first)
    }

    private mutating func scanFlags(_ new: [TCPSegment]) {
        for segment in new {
            hasFIN = hasFIN || segment.flags.contains(.fin)
            hasRST = hasRST || segment.flags.contains(.rst)
            if segment.window == 0, !segment.flags.contains(.rst) { zeroWindows += 1 }
        }
    }

    private func offset(_ segment: TCPSegment, from reference: UInt32) -> Int {
        Int(Int32(bitPattern: segment.sequence &- reference))
    }

    /// Traces `segments[first...]`: relative sequence numbers, safe across wrap-around;
    /// segments in stream order (then capture order), sorted as indices so that no segment is
    /// copied to sort it.
    private mutating func trace(from first: Int) {
        let carrying = segments.indices[first...].filter { segments[$0].length > 0 }
        if reference == nil { // so far neither a SYN nor data: only the new segments can set it
            if let syn = segments[first...].first(where: { $0.flags.contains(.syn) }) {
                reference = (syn.sequence &+ 1, true)
            } else if let index = carrying.first {
                reference = (segments[index].sequence, false)
            } else {
                return
            }
        }
        guard let start = reference?.sequence, !carrying.isEmpty else { return }
        let ordered = carrying.sorted { (offset(segments[$0], from: start), $0) < (offset(segments[$1], from: start), $1) }
        if furthestOffset == .min { next = min(0, offset(segments[ordered[0]], from: start)) }
        if !payloadsTruncated, carrying.contains(where: { segments[$0].isTruncated }) {
            payloadsTruncated = true
            stream = []
        }
        if first == 0 { // growing, the arrays' own doubling does better: a reservation reallocates to size
            if !payloadsTruncated { stream.reserveCapacity(carrying.reduce(0) { $0 + segments[$1].length }) }
            dataSegments.reserveCapacity(carrying.count)
        }
        for index in ordered {
            let segment = segments[index]
            let offset = offset(segment, from: start)
            furthestOffset = max(furthestOffset, offset)
            let end = offset + segment.length
            if end <= next { continue }
            if offset > next { holes.append(next..<offset) }
            let from = max(offset, next)
            if !payloadsTruncated { stream += segment.payload[(from - offset)...] }
            let carried = DataSegment(range: byteCount..<(byteCount + end - from), segment: segment)
            dataSegments.append(carried)
            if segment.length > largestDataSegment?.segment.length ?? 0 { largestDataSegment = carried }
            byteCount += end - from
            next = end
        }
    }

    /// The data segments that carried any of the stream bytes in `range`, found by binary
    /// search: `dataSegments` cover the stream in order, without overlaps.
    package func carriers(of range: Range<Int>) -> ArraySlice<DataSegment> {
        var low = 0, high = dataSegments.count
        while low < high {
            let middle = (low + high) / 2
            if dataSegments[middle].range.upperBound <= range.lowerBound { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < dataSegments.count, dataSegments[end].range.lowerBound < range.upperBound { end += 1 }
        return dataSegments[low..<end]
    }

    package private(set) var hasFIN = false
    package private(set) var hasRST = false
    /// How many segments (other than RSTs) advertised a window of zero.
    package private(set) var zeroWindows = 0
    package var advertisedZeroWindow: Bool { zeroWindows > 0 }
    /// The data segment that carried the most bytes (the first of equals).
    package private(set) var largestDataSegment: DataSegment?
}
