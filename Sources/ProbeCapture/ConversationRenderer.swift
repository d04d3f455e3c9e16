import ProbeScript

/// Renders captured TCP segments as conversations: per connection, one row per segment, then
/// each direction's bytes grouped into lines with how many segments carried each.
public struct ConversationRenderer: Sendable {
    public var terminator: [UInt8]

    public init(terminator: [UInt8] = [13, 10]) {
        self.terminator = terminator
    }

    public func render(_ segments: [TCPSegment], port: Int? = nil) -> String {
        let connections = ConversationRenderer.group(segments).filter { key, _ in port.map { key.contains($0) } ?? true }
        if connections.isEmpty { return "no TCP connection" + (port.map { " on port \($0)" } ?? "") + " in the capture" }
        return connections.map { render(connection: $0.segments) }.joined(separator: "\n\n")
    }

    /// Segments grouped by connection (the unordered pair of endpoints), in order of first appearance.
    static func group(_ segments: [TCPSegment]) -> [(key: Set<Int>, segments: [TCPSegment])] {
        var order: [String] = []
        var groups: [String: [TCPSegment]] = [:]
        for segment in segments {
            let a = "\(segment.sourceAddress)|\(segment.sourcePort)", b = "\(segment.destinationAddress)|\(segment.destinationPort)"
            let key = a < b ? a + "-" + b : b + "-" + a
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(segment)
        }
        return order.map { key in
            let members = groups[key]!
            return (Set([members[0].sourcePort, members[0].destinationPort]), members)
        }
    }

    private func render(connection segments: [TCPSegment]) -> String {
        // The client is the side that sent the first SYN; otherwise the first sender.
        let first = segments.first { $0.flags.contains(.syn) && !$0.flags.contains(.ack) } ?? segments[0]
        let client = (address: first.sourceAddress, port: first.sourcePort)
        let server = (address: first.destinationAddress, port: first.destinationPort)
        let clientName = Address(host: client.address, port: client.port).description
        let serverName = Address(host: server.address, port: server.port).description
        let formatter = SegmentFormatter(start: segments[0].timestamp, leftPort: client.port, windowShifts: Self.windowShifts(segments))
        var lines = ["connection \(clientName) → \(serverName): \(segments.count) segments (→ client to server, ← server to client; "
                     + "times from its first segment, windows in bytes)"]
        lines += zip(segments, Self.repeats(segments)).map { "  " + formatter.row($0, marks: $1) }
        let trace = ConnectionTrace(segments: segments, probePort: client.port, peerPort: server.port)
        lines += summary(trace.fromProbe, arrow: "→", from: clientName)
        lines += summary(trace.fromPeer, arrow: "←", from: serverName)
        return lines.joined(separator: "\n")
    }

    /// Each side's window-scale shift, by port: only when both its SYN and the other side's
    /// carried the option (RFC 7323); none otherwise, and windows are shown as sent.
    public static func windowShifts(_ segments: [TCPSegment]) -> [Int: Int] {
        var offered: [Int: Int] = [:]
        var synSenders: Set<Int> = []
        for segment in segments where segment.flags.contains(.syn) {
            synSenders.insert(segment.sourcePort)
            if let scale = segment.windowScale { offered[segment.sourcePort] = scale }
        }
        return synSenders.count == 2 && offered.count == 2 ? offered : [:]
    }

    /// Per segment, what repeats earlier traffic of its side: data sent again
    /// ("[RETRANSMISSION]") and a FIN sent again ("[DUP FIN]").
    static func repeats(_ segments: [TCPSegment]) -> [[String]] {
        var next: [Int: UInt32] = [:]
        var finSeen: Set<Int> = []
        return segments.map { segment in
            let side = segment.sourcePort
            let span = UInt32(truncatingIfNeeded: segment.length) &+ (segment.flags.contains(.syn) ? 1 : 0) &+ (segment.flags.contains(.fin) ? 1 : 0)
            var marks: [String] = []
            if segment.flags.contains(.fin) {
                if finSeen.contains(side) { marks.append("[DUP FIN]") }
                finSeen.insert(side)
            }
            if segment.length > 0, let expected = next[side], Int32(bitPattern: segment.sequence &- expected) < 0 {
                marks.append("[RETRANSMISSION]")
            }
            if span > 0 {
                let end = segment.sequence &+ span
                if let expected = next[side], Int32(bitPattern: end &- expected) <= 0 { return marks }
                next[side] = end
            }
            return marks
        }
    }

    private func summary(_ trace: DirectionTrace, arrow: String, from name: String) -> [String] {
        var lines = ["  \(arrow) \(name) sent \(trace.byteCount) bytes in \(trace.dataSegments.count) data segments"
                     + (trace.retransmissions > 0 ? ", \(trace.retransmissions) retransmitted" : "")
                     + (trace.hasFIN ? ", FIN" : "") + (trace.hasRST ? ", RST" : "")
                     + (trace.advertisedZeroWindow ? ", zero window advertised" : "")]
        for hole in trace.holes { lines.append("    missing from the capture: \(hole.count) bytes at offset \(hole.lowerBound)") }
        if trace.payloadsTruncated { lines.append("    (the capture kept only the start of each packet: no lines to show)") }
        var start = 0
        var shown = 0
        for line in WireEvaluator.lineRanges(trace.stream, terminator: terminator) {
            defer { start = line.upperBound }
            shown += 1
            if shown > 200 { continue }
            let carriers = trace.dataSegments.filter { $0.range.overlaps(line) }.count
            lines.append("    \(arrow) \"\(ByteEscaper.escape(trace.stream[line].prefix(120)))\"\(line.count > 120 ? "…" : "")"
                         + (carriers > 1 ? "  (split across \(carriers) segments)" : ""))
        }
        if shown > 200 { lines.append("    … \(shown - 200) more lines") }
        if start < trace.stream.count {
            lines.append("    \(arrow) \"\(ByteEscaper.escape(trace.stream[start...].prefix(120)))\"  (no terminator)")
        }
        return lines
    }
}
