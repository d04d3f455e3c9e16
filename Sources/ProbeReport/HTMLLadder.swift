import ProbeResults
import ProbeScript

/// A scenario's ladder diagram as an HTML table: a row per segment (or TLS record, WebSocket
/// or HTTP/2 frame, step-log line without capture), in time order, each with its time, the step that
/// was running (its source line, on the step's first row), an arrow between the lifelines
/// (probe and peer; with a proxy, client, proxy and server) and the segment's label in full.
/// Rows carry their step's number, so the page's script lights a step's rows on hover and
/// pins them on click. Pure ACKs are rows of their own class, folded by a checkbox. The
/// failing step is red with what it expected and received; the segments a failed wire check
/// names are red.
struct HTMLLadder {
    /// A row of the ladder.
    struct Row {
        enum Kind { case step, segment, unit, note, failure, gap }
        /// The lifelines: the probe (or a proxy's client), a proxy, the peer (or its server).
        enum Lifeline: Int { case left, middle, right }
        var kind: Kind
        var time: Double
        var text: String
        var from = Lifeline.left
        var to = Lifeline.right
        /// The index of the step that was running, in `ScenarioResult.steps`.
        var step: Int?
        var isPureACK = false
        var isNamed = false
        /// A segment a network's link dropped: its arrow stops halfway, at a cross.
        var isDropped = false
        var css = ""

        /// "→" left to right, "←" right to left, blank for a note.
        var arrow: String {
            guard kind == .segment || kind == .unit else { return " " }
            return to.rawValue > from.rawValue ? "→" : "←"
        }
    }

    /// How many rows a ladder draws at most; the rest are listed below it, folded.
    static let drawnRows = 500
    /// Of those, the rows kept around the failure: before it (what led there) and after.
    static let rowsBeforeFailure = 60
    static let rowsAfterFailure = 20
    /// The lifelines' x in each row's arrow cell, and its width.
    static let laneWidth = 360
    static let laneX = [Row.Lifeline.left: 20, .middle: 180, .right: 340]

    let result: ScenarioResult
    let id: String

    /// The lifelines an event's arrow joins.
    static func ends(_ event: WireEvent) -> (Row.Lifeline, Row.Lifeline) {
        switch event.proxyLeg {
        case .front?: return event.fromProbe ? (.middle, .left) : (.left, .middle)
        case .back?: return event.fromProbe ? (.middle, .right) : (.right, .middle)
        case nil: return event.fromProbe ? (.left, .right) : (.right, .left)
        }
    }

    /// The step running at `time`: the last one begun at or before it.
    func step(at time: Double) -> Int? {
        var low = 0, high = result.steps.count
        while low < high {
            let middle = (low + high) / 2
            if result.steps[middle].start <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// The index of the step that failed: the last begun at the failure's line.
    var failedStep: Int? {
        guard let failure = result.failure else { return nil }
        return result.steps.lastIndex { $0.location == failure.location }
    }

    /// Every row, in time order: a row per step, the captured segments (or, without capture,
    /// the step log) and the failure where it happened.
    func rows() -> [Row] {
        let named = result.failure?.namedSegments ?? []
        var rows: [Row]
        if !result.wire.isEmpty {
            rows = result.wire.map { event in
                let (from, to) = Self.ends(event)
                if let unit = event.unit {
                    return Row(kind: .unit, time: event.offset, text: "\(event.connection) \(unit)", from: from, to: to, step: step(at: event.offset))
                }
                var text = "\(event.connection) \(event.flags) len \(event.length)"
                if let tcp = event.tcp { text += " win \(tcp.window)" }
                if !event.preview.isEmpty { text += " \"\(event.preview)\"" }
                if let network = event.droppedBy { text += " ✗ dropped by network '\(network)'" }
                return Row(kind: .segment, time: event.offset, text: text, from: from, to: to, step: step(at: event.offset),
                           isPureACK: event.flags == "ACK" && event.length == 0,
                           isNamed: named.contains { abs($0 - event.offset) < 1e-6 }, isDropped: event.droppedBy != nil)
            }
        } else {
            rows = result.log.map { entry in
                let seconds = Double(entry.offset / .microseconds(1)) / 1e6
                let sent = entry.message.contains(": sent "), got = entry.message.contains(": got ")
                return Row(kind: sent || got ? .segment : .note, time: seconds, text: entry.message,
                           from: got ? .right : .left, to: got ? .left : .right, step: step(at: seconds))
            }
        }
        for (index, span) in result.steps.enumerated() {
            let row = Row(kind: .step, time: span.start, text: "", step: index)
            rows.insert(row, at: rows.firstIndex { $0.time > span.start || ($0.time == span.start && $0.kind != .step) } ?? rows.count)
        }
        if let failure = result.failure {
            let time = Double((result.failedAt ?? result.duration) / .microseconds(1)) / 1e6
            let row = Row(kind: .failure, time: time, text: "✘ line \(failure.location.line): \(failure.step) — \(failure.message.split(separator: "\n").first ?? "")",
                          step: failedStep)
            rows.insert(row, at: rows.firstIndex { $0.time > time } ?? rows.count)
        }
        return rows
    }

    /// The rows to draw, at most `drawnRows`: the segments the failure names, those around the
    /// failure and the first ones, with a gap row where rows were left out; and the rows left out.
    static func drawn(_ rows: [Row]) -> (drawn: [Row], leftOut: [Row]) {
        guard rows.count > drawnRows else { return (rows, []) }
        var kept = Set<Int>()
        for index in rows.indices where rows[index].isNamed && kept.count < 100 { kept.insert(index) }
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

    func render() -> String {
        let all = rows()
        let (rows, leftOut) = Self.drawn(all)
        guard rows.contains(where: { $0.kind != .step }) || result.failure != nil else { return "" }
        let threeLines = rows.contains { $0.from == .middle || $0.to == .middle }
        let names = threeLines ? "client · proxy · server" : "probe · peer"
        let acks = all.filter(\.isPureACK).count
        var html = "<div class=\"ladder-tools\">"
        if acks > 0 {
            html += "<label><input type=\"checkbox\" class=\"acks\" data-table=\"\(id)\"> show \(acks.counted("pure ACK"))</label>"
        }
        html += "<span class=\"hint\">hover over a step to light its segments; click to pin</span></div>\n"
        html += "<table class=\"ladder hide-acks\(threeLines ? " three" : "")\" id=\"\(id)\">"
        html += "<thead><tr><th>time</th><th>step</th><th class=\"lanes\">\(names)</th><th>segment</th></tr></thead><tbody>\n"
        var stepShown = Set<Int>()
        for row in rows {
            html += render(row, stepShown: &stepShown, threeLines: threeLines)
        }
        html += "</tbody></table>\n"
        guard !leftOut.isEmpty else { return html }
        let listed = leftOut.filter { $0.kind != .step }.map { "+\(DurationFormat.fixed($0.time, places: 3))s \($0.arrow) \($0.text)" }
        return html + "<details class=\"left-out\"><summary>\(listed.count) rows left out of the diagram</summary><pre>"
            + e(listed.joined(separator: "\n")) + "</pre></details>\n"
    }

    private func render(_ row: Row, stepShown: inout Set<Int>, threeLines: Bool) -> String {
        var classes: [String] = []
        if row.isPureACK { classes.append("ack") }
        if row.isNamed { classes.append("named") }
        if row.kind == .failure { classes.append("failure") }
        if let step = row.step, step == failedStep { classes.append("failed-step") }
        var html = "<tr"
        if !classes.isEmpty { html += " class=\"\(classes.joined(separator: " "))\"" }
        if let step = row.step { html += " data-step=\"\(step)\"" }
        html += "><td class=\"t\">+\(DurationFormat.fixed(row.time, places: 3))s</td>"
        html += stepCell(row, shown: &stepShown)
        html += "<td class=\"lanes\">\(arrow(row))</td>"
        switch row.kind {
        case .step: html += "<td></td>"
        case .unit: html += "<td class=\"record\">\(e(row.text))</td>"
        case .failure: html += "<td class=\"fail\">\(e(row.text))</td>"
        case .note, .gap: html += "<td class=\"note\">\(e(row.text))</td>"
        case .segment: html += "<td>\(e(row.text))</td>"
        }
        return html + "</tr>\n"
    }

    /// The step's source line on its first row; the failing step's with what it expected and received.
    private func stepCell(_ row: Row, shown: inout Set<Int>) -> String {
        guard let index = row.step, !shown.contains(index) else { return "<td class=\"step\"></td>" }
        shown.insert(index)
        let span = result.steps[index]
        let place = span.location.file == result.path ? "\(span.location.line)" : "\(span.location.file):\(span.location.line)"
        var cell = "<td class=\"step\" data-step=\"\(index)\"><code><b>\(e(place))</b> \(e(span.text))</code>"
        if index == failedStep, let failure = result.failure {
            cell += "<pre class=\"fail\">\(e(failure.message))</pre>"
        }
        return cell + "</td>"
    }

    /// The arrow of a segment or record between its lifelines, as a small SVG.
    private func arrow(_ row: Row) -> String {
        guard row.kind == .segment || row.kind == .unit else { return "" }
        let from = Self.laneX[row.from]!, to = Self.laneX[row.to]!
        let head = to > from ? -7 : 7
        let colour: String
        if row.isNamed || row.text.contains("RST") || row.text.contains(" alert ") { colour = "#cf222e" }
        else if row.kind == .unit { colour = "#0969da" }
        else if row.text.contains("FIN") { colour = "#9a6700" }
        else { colour = "#444" }
        let dash = row.kind == .unit ? " stroke-dasharray=\"6 3\"" : ""
        if row.isDropped {
            let middle = (from + to) / 2
            return "<svg width=\"\(Self.laneWidth)\" height=\"12\" aria-hidden=\"true\"><line x1=\"\(from)\" y1=\"6\" x2=\"\(middle)\" y2=\"6\" stroke=\"#cf222e\" stroke-dasharray=\"3 2\"/>"
                + "<path d=\"M\(middle - 4),2 l8,8 M\(middle + 4),2 l-8,8\" stroke=\"#cf222e\" stroke-width=\"2\"/></svg>"
        }
        return "<svg width=\"\(Self.laneWidth)\" height=\"12\" aria-hidden=\"true\"><line x1=\"\(from)\" y1=\"6\" x2=\"\(to)\" y2=\"6\" stroke=\"\(colour)\"\(dash)/>"
            + "<path d=\"M\(to),6 l\(head),-4 v8 z\" fill=\"\(colour)\"/></svg>"
    }

    private func e(_ text: String) -> String { XMLEscaping.escape(text) }
}
