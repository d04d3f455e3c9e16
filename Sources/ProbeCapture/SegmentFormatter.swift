import ProbeScript

/// One segment as a row of text: relative time, direction, flags, length, window and payload.
public struct SegmentFormatter: Sendable {
    public var start: Double
    /// The port of the side drawn on the left (the probe, or the client).
    public var leftPort: Int
    public var payloadLimit: Int

    public init(start: Double, leftPort: Int, payloadLimit: Int = 60) {
        self.start = start
        self.leftPort = leftPort
        self.payloadLimit = payloadLimit
    }

    public func row(_ segment: TCPSegment) -> String {
        let time = DurationFormat.fixed(segment.timestamp - start, places: 6)
        let arrow = segment.sourcePort == leftPort ? "→" : "←"
        var marks: [String] = []
        if segment.flags.contains(.fin) { marks.append("[FIN]") }
        if segment.flags.contains(.rst) { marks.append("[RST]") }
        if segment.window == 0, !segment.flags.contains(.rst) { marks.append("[ZERO WINDOW]") }
        let flags = segment.flags.description + String(repeating: " ", count: max(0, 11 - segment.flags.description.count))
        var text = "+\(time)s \(arrow) \(flags) len \(segment.length) win \(segment.window)"
        if !segment.payload.isEmpty {
            let shown = segment.payload.prefix(payloadLimit)
            text += " \"\(ByteEscaper.escape(shown))\"" + (segment.length > shown.count ? "…" : "")
        }
        if !marks.isEmpty { text += " " + marks.joined(separator: " ") }
        return text
    }
}
