import ProbeFraming
import ProbeScript

/// Renders captured TCP segments as conversations: per connection, one row per segment, then
/// each direction's bytes grouped into lines with how many segments carried each. A connection
/// that speaks TLS also gets a row per record, decrypted with `keys`, and its lines are the
/// decrypted ones, with how many records carried each.
package struct ConversationRenderer: Sendable {
    package var terminator: [UInt8]
    /// The TLS secrets to decrypt with (a key log); nil shows records still encrypted.
    package var keys: TLSKeyMaterial?

    package init(terminator: [UInt8] = [13, 10], keys: TLSKeyMaterial? = nil) {
        self.terminator = terminator
        self.keys = keys
    }

    package func render(_ segments: [TCPSegment], port: Int? = nil) -> String {
        let connections = ConversationRenderer.group(segments).filter { key, _ in port.map { key.contains($0) } ?? true }
        if connections.isEmpty { return "no TCP connection" + (port.map { " on port \($0)" } ?? "") + " in the capture" }
        return connections.map { render(connection: $0.segments) }.joined(separator: "\n\n")
    }

    /// Segments grouped by connection (the unordered pair of endpoints), in order of first appearance.
    package static func group(_ segments: [TCPSegment]) -> [(key: Set<Int>, segments: [TCPSegment])] {
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
        lines += zip(segments, Self.analysisMarks(segments)).map { "  " + formatter.row($0, marks: $1) }
        let trace = ConnectionTrace(segments: segments, probePort: client.port, peerPort: server.port)
        guard !trace.fromProbe.payloadsTruncated, TLSConversation.helloStart(in: trace.fromProbe.stream, type: 1) != nil else {
            lines += summary(trace.fromProbe, arrow: "→", from: clientName)
            lines += summary(trace.fromPeer, arrow: "←", from: serverName)
            return lines.joined(separator: "\n")
        }
        let conversation = TLSConversation(client: trace.fromProbe.stream, server: trace.fromPeer.stream, keys: keys ?? TLSKeyMaterial(lines: [String]()))
        let suite = conversation.cipherSuite.map { " " + TLSCipherSuite.name(of: $0) } ?? ""
        let state = keys == nil ? "not decrypted: no key log (--keylog FILE, or FILE.keys beside the pcap)"
            : conversation.problem.map { "not all decrypted: \($0)" } ?? "decrypted with the key log"
        lines.append("  TLS \(conversation.version.map(TLSVersionName.name) ?? "?")\(suite): \(conversation.clientRecords.count + conversation.serverRecords.count) records, \(state)")
        lines += TLSRecordRows.rows(conversation, client: trace.fromProbe, server: trace.fromPeer, start: segments[0].timestamp).map { "  " + $0 }
        for (records, start, tcp, arrow, name) in [(conversation.clientRecords, conversation.clientStart, trace.fromProbe, "→", clientName),
                                                   (conversation.serverRecords, conversation.serverStart, trace.fromPeer, "←", serverName)] {
            let application = TLSApplicationTrace(records: records, tlsStart: start, tcp: tcp)
            let label = start == 0 ? "TLS records, decrypted" : "plaintext segments and then TLS records (decrypted), as TLS began at offset \(start)"
            lines += summary(application.trace, arrow: arrow, from: name, unit: .record, carriers: label)
        }
        return lines.joined(separator: "\n")
    }

    /// Each side's window-scale shift, by port: only when both its SYN and the other side's
    /// carried the option (RFC 7323); none otherwise, and windows are shown as sent.
    package static func windowShifts(_ segments: [TCPSegment]) -> [Int: Int] {
        var offered: [Int: Int] = [:]
        var synSenders: Set<Int> = []
        for segment in segments where segment.flags.contains(.syn) {
            synSenders.insert(segment.sourcePort)
            if let scale = segment.windowScale { offered[segment.sourcePort] = scale }
        }
        return synSenders.count == 2 && offered.count == 2 ? offered : [:]
    }

    /// Per segment, what Wireshark's analysis would say of it beside its own fields: data sent
    /// again ("[RETRANSMISSION]", by the rule `retransmissions` counts), a FIN sent again
    /// ("[DUP FIN]"), and data that filled the other side's window ("[WINDOW FULL]").
    static func analysisMarks(_ segments: [TCPSegment]) -> [[String]] {
        var resent = RetransmissionAnalysis()
        var windows = WindowFullAnalysis(windowShifts: windowShifts(segments))
        var finSeen: Set<Int> = []
        return segments.map { segment in
            var marks: [String] = []
            if segment.flags.contains(.fin) {
                if finSeen.contains(segment.sourcePort) { marks.append("[DUP FIN]") }
                finSeen.insert(segment.sourcePort)
            }
            if resent.isRetransmission(segment) { marks.append("[RETRANSMISSION]") }
            if windows.fillsWindow(segment) { marks.append("[WINDOW FULL]") }
            return marks
        }
    }

    private func summary(_ trace: DirectionTrace, arrow: String, from name: String, unit: WireUnit = .segment,
                         carriers: String = "data segments") -> [String] {
        var lines = ["  \(arrow) \(name) sent \(trace.byteCount) bytes in \(trace.dataSegments.count) \(carriers)"
                     + (trace.retransmissions > 0 ? ", \(trace.retransmissions) retransmitted" : "")
                     + (trace.hasFIN ? ", FIN" : "") + (trace.hasRST ? ", RST" : "")
                     + (trace.advertisedZeroWindow ? ", zero window advertised" : "")]
        for hole in trace.holes { lines.append("    missing from the capture: \(hole.count) bytes at offset \(hole.lowerBound)") }
        if trace.payloadsTruncated { lines.append("    (the capture kept only the start of each packet: no lines to show)") }
        var start = 0
        var shown = 0
        for line in MessageUnits.lines(terminator: terminator).messages(in: trace.stream).map(\.range) {
            defer { start = line.upperBound }
            shown += 1
            if shown > 200 { continue }
            let carriers = trace.dataSegments.filter { $0.range.overlaps(line) }.count
            lines.append("    \(arrow) \"\(ByteEscaper.escape(trace.stream[line].prefix(120)))\"\(line.count > 120 ? "…" : "")"
                         + (carriers > 1 ? "  (split across \(unit.count(carriers)))" : ""))
        }
        if shown > 200 { lines.append("    … \(shown - 200) more lines") }
        if start < trace.stream.count {
            lines.append("    \(arrow) \"\(ByteEscaper.escape(trace.stream[start...].prefix(120)))\"  (no terminator)")
        }
        return lines
    }
}
