import ProbeScript

/// One segment as a row of text: time since the connection's first segment, direction, flags,
/// length, window and payload.
package struct SegmentFormatter: Sendable {
    package var start: Double
    /// The port of the side drawn on the left (the probe, or the client).
    package var leftPort: Int
    package var payloadLimit: Int
    /// Each side's window-scale shift by its port, when both SYNs agreed on scaling: a window
    /// is then shown as the bytes it stands for, as Wireshark's calculated window size shows it.
    package var windowShifts: [Int: Int]

    package init(start: Double, leftPort: Int, payloadLimit: Int = 60, windowShifts: [Int: Int] = [:]) {
        self.start = start
        self.leftPort = leftPort
        self.payloadLimit = payloadLimit
        self.windowShifts = windowShifts
    }

    /// The window `segment` advertises, in bytes: its field scaled, except on a SYN (never scaled).
    package func window(of segment: TCPSegment) -> Int {
        guard !segment.flags.contains(.syn), let shift = windowShifts[segment.sourcePort] else { return segment.window }
        return segment.window << shift
    }

    /// `marks` adds what the caller knows of the segment ("[RETRANSMISSION]").
    package func row(_ segment: TCPSegment, marks extra: [String] = []) -> String {
        let time = DurationFormat.fixed(segment.timestamp - start, places: 6)
        let arrow = segment.sourcePort == leftPort ? "→" : "←"
        var marks: [String] = []
        if segment.flags.contains(.fin) { marks.append("[FIN]") }
        if segment.flags.contains(.rst) { marks.append("[RST]") }
        if segment.window == 0, !segment.flags.contains(.rst) { marks.append("[ZERO WINDOW]") }
        let flags = segment.flags.description + String(repeating: " ", count: max(0, 11 - segment.flags.description.count))
        var text = "+\(time)s \(arrow) \(flags) len \(segment.length) win \(window(of: segment))"
        if !segment.payload.isEmpty {
            let shown = segment.payload.prefix(payloadLimit)
            text += " \"\(ByteEscaper.escape(shown))\"" + (segment.length > shown.count ? "…" : "")
        }
        marks += extra
        if !marks.isEmpty { text += " " + marks.joined(separator: " ") }
        return text
    }
}
