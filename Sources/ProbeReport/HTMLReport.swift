import ProbeResults
import ProbeScript

/// One self-contained HTML file (no external assets): per scenario its outcome, and a ladder
/// diagram — probe and peer as two vertical lines (with a proxy: client, proxy and server as
/// three), each segment an arrow with its time, flags, length and payload — drawn from the
/// capture when there was one, else from the step log. Steps and the failure are marked on
/// the timeline.
enum HTMLReport {
    static func render(_ run: RunReport) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>tcpprobe report</title>
            <style>
            body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222}
            h1{font-size:20px} h2{font-size:16px;margin-top:32px}
            .pass{color:#1a7f37} .fail{color:#cf222e} .skip{color:#9a6700}
            pre{background:#f6f8fa;padding:8px;overflow:auto;font-size:12px}
            svg text{font:11px ui-monospace,monospace} .note{fill:#555} .record{fill:#0969da} .failure{fill:#cf222e;font-weight:bold}
            </style></head><body>
            <h1>tcpprobe: \(run.passed) passed\(run.skippedWireText.map { " (\($0))" } ?? ""), \(run.failed + run.errored) failed\(run.skipped > 0 ? ", \(run.skipped) skipped" : "")\(run.interrupted ? " (interrupted)" : "")</h1>
            <p>Started \(e(run.startedAt)), took \(DurationFormat.seconds(run.duration)) s.</p>

            """
        if !run.notes.isEmpty { html += "<pre>\(e(run.notes.joined(separator: "\n")))</pre>\n" }
        for (index, result) in run.results.enumerated() {
            let (label, css) = status(result)
            html += "<section id=\"s\(index)\"><h2 class=\"\(css)\">\(label) \(e(result.title)) <small>(\(e(result.path)), \(DurationFormat.seconds(result.duration)) s)</small></h2>\n"
            if let text = result.failureText { html += "<pre class=\"fail\">\(e(text))</pre>\n" }
            if let skippedWire = result.skippedWireText, result.outcome.passed { html += "<p class=\"skip\">\(skippedWire): capture was not possible</p>\n" }
            html += ladder(result)
            if !result.notes.isEmpty { html += "<pre>\(e(result.notes.joined(separator: "\n")))</pre>\n" }
            html += "</section>\n"
        }
        return html + "</body></html>\n"
    }

    private static func status(_ result: ScenarioResult) -> (String, String) {
        switch result.outcome {
        case .passed: return ("✔", "pass")
        case .skipped: return ("–", "skip")
        case .failed: return ("✘", "fail")
        }
    }

    /// A row of the ladder: an arrow between the lines, a note on the timeline, or where rows
    /// were left out.
    private struct Row {
        enum Kind { case segment, unit, note, failure, gap }
        /// The lifelines: the probe (or a proxy's client), a proxy, the peer (or its server).
        enum Lifeline: Int { case left, middle, right }
        var kind: Kind
        var time: Double
        var text: String
        /// Where an arrow starts and ends.
        var from = Lifeline.left
        var to = Lifeline.right

        /// "→" left to right, "←" right to left, blank for a note.
        var arrow: String {
            guard kind == .segment || kind == .unit else { return " " }
            return to.rawValue > from.rawValue ? "→" : "←"
        }
    }

    /// The lifelines an event's arrow joins.
    private static func ends(_ event: WireEvent) -> (Row.Lifeline, Row.Lifeline) {
        switch event.proxyLeg {
        case .front?: return event.fromProbe ? (.middle, .left) : (.left, .middle)
        case .back?: return event.fromProbe ? (.middle, .right) : (.right, .middle)
        case nil: return event.fromProbe ? (.left, .right) : (.right, .left)
        }
    }

    /// How many rows a ladder draws at most; the rest are listed below it, folded.
    static let drawnRows = 500
    /// Of those, the rows kept around the failure: before it (what led there) and after.
    static let rowsBeforeFailure = 60
    static let rowsAfterFailure = 20

    /// Every row, in time order: the captured segments (or, without capture, the step log) and
    /// the failure where it happened.
    private static func rows(_ result: ScenarioResult) -> [Row] {
        var rows: [Row]
        if !result.wire.isEmpty {
            rows = result.wire.map { event in
                let (from, to) = ends(event)
                if let unit = event.unit {
                    return Row(kind: .unit, time: event.offset, text: "\(event.connection) \(unit)", from: from, to: to)
                }
                let text = "\(event.connection) \(event.flags) len \(event.length)" + (event.preview.isEmpty ? "" : " \"\(event.preview)\"")
                return Row(kind: .segment, time: event.offset, text: text, from: from, to: to)
            }
        } else {
            rows = result.log.map { entry in
                let seconds = Double(entry.offset / .microseconds(1)) / 1e6
                let sent = entry.message.contains(": sent "), got = entry.message.contains(": got ")
                return Row(kind: sent || got ? .segment : .note, time: seconds, text: (entry.location.map { "line \($0.line): " } ?? "") + entry.message,
                           from: got ? .right : .left, to: got ? .left : .right)
            }
        }
        if let failure = result.failure {
            let time = Double((result.failedAt ?? result.duration) / .microseconds(1)) / 1e6
            let row = Row(kind: .failure, time: time, text: "✘ line \(failure.location.line): \(failure.step) — \(failure.message.split(separator: "\n").first ?? "")")
            rows.insert(row, at: rows.firstIndex { $0.time > time } ?? rows.count)
        }
        return rows
    }

    /// The rows to draw, at most `drawnRows`: the segments the failure names, those around the
    /// failure and the first ones, with a gap row where rows were left out; and the rows left out.
    private static func drawn(_ rows: [Row], naming named: [Double]) -> (drawn: [Row], leftOut: [Row]) {
        guard rows.count > drawnRows else { return (rows, []) }
        var kept = Set<Int>()
        for time in named.prefix(100) {
            if let index = rows.firstIndex(where: { $0.kind != .failure && abs($0.time - time) < 1e-6 }) { kept.insert(index) }
        }
        if let failure = rows.firstIndex(where: { $0.kind == .failure }) {
            kept.formUnion(max(0, failure - rowsBeforeFailure)...min(rows.count - 1, failure + rowsAfterFailure))
        }
        // Room for a gap row before each stretch kept, and one after the last.
        let stretches = kept.filter { !kept.contains($0 - 1) }.count
        let budget = drawnRows - kept.count - stretches - 1
        kept.formUnion(0..<max(0, budget))
        var drawn: [Row] = []
        var leftOut: [Row] = []
        var gap: [Row] = []
        func closeGap() {
            guard let first = gap.first else { return }
            drawn.append(Row(kind: .gap, time: first.time, text: "… \(gap.count) rows left out here (listed below the diagram)"))
            leftOut += gap
            gap = []
        }
        for (index, row) in rows.enumerated() {
            if kept.contains(index) {
                closeGap()
                drawn.append(row)
            } else {
                gap.append(row)
            }
        }
        closeGap()
        return (drawn, leftOut)
    }

    private static func ladder(_ result: ScenarioResult) -> String {
        let (rows, leftOut) = drawn(rows(result), naming: result.failure?.namedSegments ?? [])
        guard !rows.isEmpty else { return "" }
        let rowHeight = 22, top = 30, left = 90, right = 610, width = 1100
        let middle = (left + right) / 2
        let threeLines = rows.contains { $0.from == .middle || $0.to == .middle }
        func x(_ lifeline: Row.Lifeline) -> Int {
            switch lifeline {
            case .left: return left
            case .middle: return middle
            case .right: return right
            }
        }
        let height = top + rows.count * rowHeight + 20
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"ladder diagram\">\n"
        svg += "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#444\"/></marker></defs>\n"
        let names: [(Row.Lifeline, String)] = threeLines ? [(.left, "client"), (.middle, "proxy"), (.right, "server")] : [(.left, "probe"), (.right, "peer")]
        for (lifeline, name) in names {
            svg += "<text x=\"\(x(lifeline) - 15)\" y=\"18\">\(name)</text>"
            svg += "<line x1=\"\(x(lifeline))\" y1=\"\(top - 6)\" x2=\"\(x(lifeline))\" y2=\"\(height - 10)\" stroke=\"#888\"/>\n"
        }
        for (index, row) in rows.enumerated() {
            let y = top + index * rowHeight
            let (from, to) = (x(row.from), x(row.to))
            let textX = min(from, to) + 10
            svg += "<text x=\"4\" y=\"\(y + 4)\" class=\"note\">+\(DurationFormat.fixed(row.time, places: 3))s</text>"
            switch row.kind {
            case .segment:
                let colour = row.text.contains("RST") ? "#cf222e" : (row.text.contains("FIN") ? "#9a6700" : "#444")
                svg += "<line x1=\"\(from)\" y1=\"\(y)\" x2=\"\(to)\" y2=\"\(y + 8)\" stroke=\"\(colour)\" marker-end=\"url(#arrow)\"/>"
                svg += "<text x=\"\(textX)\" y=\"\(y - 2)\">\(e(String(row.text.prefix(90))))</text>\n"
            case .unit:
                // A TLS record or WebSocket frame, over the segment that completed it: blue,
                // dashed, and TLS alerts red.
                let colour = row.text.contains(" alert ") ? "#cf222e" : "#0969da"
                svg += "<line x1=\"\(from)\" y1=\"\(y)\" x2=\"\(to)\" y2=\"\(y + 8)\" stroke=\"\(colour)\" stroke-dasharray=\"6 3\" marker-end=\"url(#arrow)\"/>"
                svg += "<text x=\"\(textX)\" y=\"\(y - 2)\" class=\"record\">\(e(String(row.text.prefix(90))))</text>\n"
            case .note:
                svg += "<text x=\"\(right + 12)\" y=\"\(y + 4)\" class=\"note\">\(e(String(row.text.prefix(80))))</text>\n"
            case .failure:
                svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(right)\" y2=\"\(y)\" stroke=\"#cf222e\" stroke-dasharray=\"4 3\"/>"
                svg += "<text x=\"\(right + 12)\" y=\"\(y + 4)\" class=\"failure\">\(e(String(row.text.prefix(80))))</text>\n"
            case .gap:
                svg += "<text x=\"\(left + 10)\" y=\"\(y + 4)\" class=\"note\">\(e(row.text))</text>\n"
            }
        }
        svg += "</svg>\n"
        guard !leftOut.isEmpty else { return svg }
        let listed = leftOut.map { "+\(DurationFormat.fixed($0.time, places: 3))s \($0.arrow) \($0.text)" }
        return svg + "<details class=\"left-out\"><summary>\(leftOut.count) rows left out of the diagram</summary><pre>"
            + e(listed.joined(separator: "\n")) + "</pre></details>\n"
    }

    private static func e(_ text: String) -> String { XMLEscaping.escape(text) }
}
