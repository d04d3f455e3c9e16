import ProbeResults
import ProbeScript

/// A time–sequence graph of one direction of a connection, in the style of tcptrace and
/// Wireshark's Stevens graph: each data segment a short vertical bar from its first byte to
/// its last (relative sequence numbers) at the time it was seen; the receiver's acknowledged
/// byte as a green step line and the right edge of the window it advertised (acknowledged +
/// window) as an orange one, so a closed window shows as the two lines meeting. Zero-window
/// advertisements are red dots on the acknowledged line.
///
/// Drawn for a direction that carried a bulk transfer (at least `bulkBytes`), or whose
/// receiver advertised a zero window, or a window under a quarter of its largest while data
/// flowed (a slow reader).
struct HTMLTimeSequenceGraph {
    /// One direction of one connection: the sender's data segments and the receiver's ACKs.
    struct Direction {
        var connection: String
        var sender: String
        var receiver: String
        var data: [(time: Double, sequence: Int, length: Int)] = []
        var acks: [(time: Double, acknowledged: Int, window: Int)] = []

        var bytes: Int { data.reduce(0) { $0 + $1.length } }
        var sawZeroWindow: Bool { acks.contains { $0.window == 0 } }
        var windowShrank: Bool {
            guard let largest = acks.map(\.window).max(), largest > 0, !data.isEmpty else { return false }
            return acks.contains { $0.window < largest / 4 }
        }
    }

    static let bulkBytes = 64 * 1024
    static let width = 720, height = 320
    static let margin = (left: 70, right: 40, top: 30, bottom: 40)

    /// The directions of `events` worth a graph, in the order their connections appear.
    static func directions(_ events: [WireEvent]) -> [Direction] {
        var found: [String: Direction] = [:]
        var order: [String] = []
        for event in events {
            guard let tcp = event.tcp else { continue }
            let names = endNames(event)
            let sending = "\(event.connection) \(names.from)→\(names.to)"
            let receiving = "\(event.connection) \(names.to)→\(names.from)"
            if event.length > 0 {
                if found[sending] == nil {
                    found[sending] = Direction(connection: event.connection, sender: names.from, receiver: names.to)
                    order.append(sending)
                }
                found[sending]!.data.append((event.offset, tcp.sequence, event.length))
            }
            if let acknowledged = tcp.acknowledgement, !event.flags.contains("RST") {
                if found[receiving] == nil {
                    found[receiving] = Direction(connection: event.connection, sender: names.to, receiver: names.from)
                    order.append(receiving)
                }
                found[receiving]!.acks.append((event.offset, acknowledged, tcp.window))
            }
        }
        return order.compactMap { found[$0] }.filter { !$0.data.isEmpty && ($0.bytes >= bulkBytes || $0.sawZeroWindow || $0.windowShrank) }
    }

    private static func endNames(_ event: WireEvent) -> (from: String, to: String) {
        switch event.proxyLeg {
        case .front?: return event.fromProbe ? ("proxy", "client") : ("client", "proxy")
        case .back?: return event.fromProbe ? ("proxy", "server") : ("server", "proxy")
        case nil: return event.fromProbe ? ("probe", "peer") : ("peer", "probe")
        }
    }

    /// Every graph of the scenario, each in a figure with its caption.
    static func render(_ result: ScenarioResult) -> String {
        directions(result.wire).map(render).joined()
    }

    static func render(_ direction: Direction) -> String {
        let times = direction.data.map(\.time) + direction.acks.map(\.time)
        let start = times.min() ?? 0, end = max(times.max() ?? 0, start + 1e-6)
        let top = max(direction.data.map { $0.sequence + $0.length }.max() ?? 1,
                      direction.acks.map { $0.acknowledged + $0.window }.max() ?? 1, 1)
        let plotWidth = Double(width - margin.left - margin.right), plotHeight = Double(height - margin.top - margin.bottom)
        func x(_ time: Double) -> String { fixed(Double(margin.left) + (time - start) / (end - start) * plotWidth) }
        func y(_ sequence: Int) -> String { fixed(Double(margin.top) + plotHeight - Double(sequence) / Double(top) * plotHeight) }

        var svg = "<svg class=\"tsg\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"time–sequence graph\">"
        svg += "<rect x=\"\(margin.left)\" y=\"\(margin.top)\" width=\"\(Int(plotWidth))\" height=\"\(Int(plotHeight))\" fill=\"none\" stroke=\"#ccc\"/>"
        for tick in 0...4 {
            let value = top * tick / 4
            svg += "<text x=\"\(margin.left - 6)\" y=\"\(y(value))\" text-anchor=\"end\" class=\"axis\">\(e(size(value)))</text>"
            let time = start + (end - start) * Double(tick) / 4
            svg += "<text x=\"\(x(time))\" y=\"\(height - margin.bottom + 16)\" text-anchor=\"middle\" class=\"axis\">+\(DurationFormat.fixed(time, places: 3))s</text>"
        }
        svg += "<text x=\"\(margin.left)\" y=\"\(margin.top - 10)\" class=\"axis\">sequence (bytes) \(e(direction.sender)) → \(e(direction.receiver)), against time</text>"
        svg += stepLine(direction.acks.map { ($0.time, $0.acknowledged) }, end: end, x: x, y: y, colour: "#1a7f37", css: "acked")
        svg += stepLine(direction.acks.map { ($0.time, $0.acknowledged + $0.window) }, end: end, x: x, y: y, colour: "#bc4c00", css: "window")
        var bars = ""
        for segment in direction.data {
            bars += "M\(x(segment.time)),\(y(segment.sequence))V\(y(segment.sequence + segment.length))"
        }
        svg += "<path class=\"data\" d=\"\(bars)\" stroke=\"#0969da\" stroke-width=\"2\" fill=\"none\"/>"
        for ack in direction.acks where ack.window == 0 {
            svg += "<circle class=\"zero-window\" cx=\"\(x(ack.time))\" cy=\"\(y(ack.acknowledged))\" r=\"3\" fill=\"#cf222e\"/>"
        }
        svg += "</svg>"
        let zero = direction.acks.filter { $0.window == 0 }.count
        var caption = "\(direction.connection): \(direction.sender) → \(direction.receiver), \(size(direction.bytes)) in \(direction.data.count) segments"
        if zero > 0 { caption += "; \(zero.counted("zero-window advertisement")) by the \(direction.receiver)" }
        caption += ". Blue: data; green: acknowledged; orange: the window's right edge."
        return "<figure class=\"tsg\">\(svg)<figcaption>\(e(caption))</figcaption></figure>\n"
    }

    /// A step line through `points` (each value held until the next), on to `end`.
    private static func stepLine(_ points: [(Double, Int)], end: Double, x: (Double) -> String, y: (Int) -> String, colour: String, css: String) -> String {
        guard let first = points.first else { return "" }
        var d = "M\(x(first.0)),\(y(first.1))"
        for point in points.dropFirst() { d += "H\(x(point.0))V\(y(point.1))" }
        d += "H\(x(end))"
        return "<path class=\"\(css)\" d=\"\(d)\" stroke=\"\(colour)\" fill=\"none\"/>"
    }

    private static func fixed(_ value: Double) -> String { DurationFormat.fixed(value, places: 1) }

    private static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 { return DurationFormat.fixed(Double(bytes) / Double(1 << 20), places: 1) + " MiB" }
        if bytes >= 1 << 10 { return DurationFormat.fixed(Double(bytes) / Double(1 << 10), places: 1) + " KiB" }
        return "\(bytes) B"
    }

    private static func e(_ text: String) -> String { XMLEscaping.escape(text) }
}
