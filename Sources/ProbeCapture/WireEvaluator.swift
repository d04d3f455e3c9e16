import ProbeFraming
import ProbeScript

/// Judges wire checks against a reassembled direction of a connection.
package enum WireEvaluator {
    package static func evaluate(_ check: WireCheck, on trace: DirectionTrace, unit: WireUnit = .segment, opposite: DirectionTrace? = nil) -> WireVerdict {
        var progress: WireProgress?
        return evaluate(check, on: trace, unit: unit, opposite: opposite, progress: &progress)
    }

    /// Judges `check`, carrying on from `progress` when it was made on this same trace (grown
    /// since), and leaves in it how far this judgement got, for the next run of the same check.
    /// `unit` names what the trace's segments are: TCP segments, or TLS records. `opposite` is
    /// the other direction of the same connection, which tells a provoked RST from one the
    /// sender chose.
    package static func evaluate(_ check: WireCheck, on trace: DirectionTrace, unit: WireUnit = .segment, opposite: DirectionTrace? = nil,
                                progress: inout WireProgress?) -> WireVerdict {
        let resume = progress.flatMap { $0.traceID == trace.id && $0.end <= trace.stream.count ? $0 : nil }
        progress = nil
        if !trace.holes.isEmpty, needsStream(check) {
            let hole = trace.holes[0]
            return WireVerdict(passed: false, summary: "inconclusive: the capture is missing \(hole.count) bytes at stream offset \(hole.lowerBound) (packets not captured)")
        }
        if trace.payloadsTruncated, check.readsPayloads {
            return WireVerdict(passed: false, summary: "inconclusive: the capture kept only the start of each packet (--snaplen), and this check reads the payloads")
        }
        switch check {
        case .terminator(let terminator):
            return checkTerminator(terminator, trace, from: resume, progress: &progress)
        case .linesUnsplit(let terminator):
            return checkLinesUnsplit(terminator, trace, unit, from: resume, progress: &progress)
        case .lineInOneSegment(let description, let terminator, let matches):
            return checkInOneSegment(description, .lines(terminator: terminator), from: 0, matches, trace, unit)
        case .messageInOneSegment(let description, let units, let start, let matches):
            return checkInOneSegment(description, units, from: start, matches, trace, unit)
        case .messagesUnsplit(let units, let start):
            let messages = units.messages(in: trace.stream, from: start)
            if let split = messages.first(where: { trace.carriers(of: $0.range).count > 1 }) {
                let carriers = trace.carriers(of: split.range)
                return WireVerdict(passed: false, summary: "the \(units.name) \(units.describe(split)) (\(split.range.count) bytes at offset \(split.range.lowerBound)) was split across \(unit.count(carriers.count))",
                                   evidence: carriers.map(\.segment))
            }
            guard !messages.isEmpty else { return nothingSent("\(units.name)", trace) }
            return WireVerdict(passed: true, summary: unsplit(messages.count, units.name, unit))
        case .framesMasked(let masked):
            return checkMasking(masked, trace)
        case .records(let op, let count):
            return compare("TLS application data records", trace.dataSegments.count, op, count, evidence: trace.dataSegments.map(\.segment))
        case .segments(let op, let count):
            let actual = trace.dataSegments.count
            return compare("data-bearing segments", actual, op, count, evidence: trace.dataSegments.map(\.segment))
        case .retransmissions(let op, let count):
            return compare("data-bearing segments sent again", trace.retransmissions, op, count, evidence: Array(trace.retransmitted.suffix(10)))
        case .maxSegment(let op, let size):
            let largest = trace.largestDataSegment
            return compare("the largest segment's payload", largest?.segment.length ?? 0, op, size, evidence: largest.map { [$0.segment] } ?? [])
        case .bytes(let op, let count):
            return compare("bytes", trace.byteCount, op, count, evidence: Array(trace.dataSegments.map(\.segment).suffix(10)))
        case .fin:
            return flag(trace.hasFIN, "a FIN was sent", "no FIN was sent", trace)
        case .noFin:
            return flag(!trace.hasFIN, "no FIN was sent", "a FIN was sent", trace, evidence: trace.segments.filter { $0.flags.contains(.fin) })
        case .rst:
            let (own, provoked) = resets(in: trace, opposite: opposite)
            return flag(!own.isEmpty, "a RST was sent", "no RST was sent" + provokedNote(provoked), trace)
        case .noRst:
            let (own, provoked) = resets(in: trace, opposite: opposite)
            return flag(own.isEmpty, "no RST was sent" + provokedNote(provoked), "a RST was sent", trace, evidence: own)
        case .zeroWindow:
            guard trace.zeroWindows == 0 else {
                return WireVerdict(passed: true, summary: "\(trace.zeroWindows.counted("segment")) advertised a zero window")
            }
            return WireVerdict(passed: false, summary: "no segment advertised a zero window" + windowFullNote(opposite.map { WindowFullAnalysis.fills(by: $0, of: trace) } ?? 0),
                               evidence: Array(trace.segments.suffix(10)))
        }
    }

    /// Why a receiver that kept its sender waiting may still never have advertised zero.
    private static func windowFullNote(_ fills: Int) -> String {
        guard fills > 0 else { return "" }
        return ", though the other side filled the window to its edge \(fills.counted("time")) and waited (Wireshark's window full): "
            + "each time, the window reopened before an ACK said zero (Linux delays that ACK about 40ms, and a read before then reopens it; "
            + "a buffer left full longer shows a zero window)"
    }

    /// "3 lines, none split across segments", "1 message, not split across TLS records".
    private static func unsplit(_ number: Int, _ noun: String, _ unit: WireUnit) -> String {
        "\(number.counted(noun)), \(number == 1 ? "not" : "none") split across \(unit.plural)"
    }

    /// Every message that `matches` arrived in one segment (or record), not only the first: a
    /// reply split the third time it is sent fails.
    private static func checkInOneSegment(_ description: String, _ units: MessageUnits, from start: Int, _ matches: ([UInt8]) -> Bool,
                                          _ trace: DirectionTrace, _ unit: WireUnit) -> WireVerdict {
        var matched = 0
        var split: (range: Range<Int>, carriers: ArraySlice<DirectionTrace.DataSegment>)?
        for message in units.messages(in: trace.stream, from: start) where matches(message.payload) {
            matched += 1
            let carriers = trace.carriers(of: message.range)
            if carriers.count > 1 {
                split = (message.range, carriers)
                break
            }
        }
        let name = units.name
        if let split {
            let which = matched == 1 ? "" : " (the \(ordinal(matched)) that matches, at stream offset \(split.range.lowerBound))"
            return WireVerdict(passed: false, summary: "\(name) \(description)\(which) arrived in \(unit.count(split.carriers.count))",
                               evidence: split.carriers.map(\.segment))
        }
        guard matched > 0 else {
            var summary = "no captured \(name) matches \(description)"
            // A line is matched without its terminator: an expected one written with it matches none.
            if case .lines(let terminator) = units,
               let line = units.messages(in: trace.stream, from: start).first(where: { matches($0.payload + terminator) }) {
                summary += " (a line is matched without its terminator: \(units.describe(line)) would match)"
            }
            return WireVerdict(passed: false, summary: summary, evidence: trace.dataSegments.suffix(10).map(\.segment))
        }
        return WireVerdict(passed: true, summary: matched == 1 ? "\(name) \(description) arrived in \(unit.count(1))" : "\(matched) \(name)s \(description), each in \(unit.count(1))")
    }

    /// Every WebSocket frame masked (a client's, RFC 6455 §5.1), or none (a server's).
    private static func checkMasking(_ masked: Bool, _ trace: DirectionTrace) -> WireVerdict {
        let wanted = masked ? "masked" : "unmasked"
        let frames = WebSocketWireFrame.framesAfterUpgrade(in: trace.stream)
        guard !frames.isEmpty else {
            return WireVerdict(passed: false, summary: "no WebSocket frame was captured", evidence: trace.dataSegments.suffix(10).map(\.segment))
        }
        if let index = frames.firstIndex(where: { $0.masked != masked }) {
            let frame = frames[index]
            return WireVerdict(passed: false, summary: "the \(ordinal(index + 1)) frame (\(frame.summary), at stream offset \(frame.range.lowerBound)) is not \(wanted)",
                               evidence: trace.carriers(of: frame.range).map(\.segment))
        }
        return WireVerdict(passed: true, summary: frames.count == 1 ? "1 frame, \(wanted)" : "\(frames.count) frames, each \(wanted)")
    }

    /// A property of every line (or message) fails when there was none to judge: a peer that
    /// sent nothing has not shown that its lines end in CRLF.
    private static func nothingSent(_ unit: String, _ trace: DirectionTrace) -> WireVerdict {
        let captured = trace.stream.isEmpty ? "nothing was sent this way" : "\(trace.stream.count) bytes were sent this way, none a whole \(unit)"
        return WireVerdict(passed: false, summary: "no complete \(unit) to judge: \(captured)", evidence: trace.dataSegments.suffix(10).map(\.segment))
    }

    /// The RSTs `trace` carries, split into those its sender chose and those the other side
    /// provoked: a RST after bytes the other side sent once this side had sent its FIN (a
    /// close_notify written into a closed socket, a send after the peer closed) is the
    /// kernel's answer to those bytes, not the sender's doing.
    static func resets(in trace: DirectionTrace, opposite: DirectionTrace?) -> (own: [TCPSegment], provoked: [(reset: TCPSegment, late: TCPSegment)]) {
        let resets = trace.segments.filter { $0.flags.contains(.rst) }
        guard !resets.isEmpty, let opposite, let fin = trace.segments.first(where: { $0.flags.contains(.fin) }),
              let late = opposite.segments.first(where: { $0.length > 0 && $0.timestamp >= fin.timestamp }) else {
            return (resets, [])
        }
        var own: [TCPSegment] = []
        var provoked: [(reset: TCPSegment, late: TCPSegment)] = []
        for reset in resets {
            if reset.timestamp >= late.timestamp { provoked.append((reset, late)) } else { own.append(reset) }
        }
        return (own, provoked)
    }

    private static func provokedNote(_ provoked: [(reset: TCPSegment, late: TCPSegment)]) -> String {
        guard let first = provoked.first else { return "" }
        let count = provoked.count == 1 ? "a RST" : "\(provoked.count) RSTs"
        return " of its own (\(count) not counted: provoked by the \(first.late.length) bytes sent to it after its FIN, such as a TLS close_notify or a late send)"
    }

    /// "1st", "2nd", "3rd", "4th", … "11th", "21st".
    static func ordinal(_ number: Int) -> String {
        let suffix: String
        switch (number % 10, number % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }

    private static func needsStream(_ check: WireCheck) -> Bool {
        switch check {
        case .fin, .rst, .noFin, .noRst, .zeroWindow: return false
        default: return true
        }
    }

    /// Evidence is gathered only for a failure: a check after every round trip would otherwise
    /// copy the whole trace's segments each time it passes.
    private static func compare(_ what: String, _ actual: Int, _ op: ComparisonOperator, _ expected: Int,
                                evidence: @autoclosure () -> [TCPSegment]) -> WireVerdict {
        let summary = "\(what): \(actual) (expected \(op.rawValue) \(expected))"
        return op.holds(actual, expected) ? WireVerdict(passed: true, summary: summary) : WireVerdict(passed: false, summary: summary, evidence: Array(evidence().suffix(10)))
    }

    private static func flag(_ holds: Bool, _ yes: String, _ no: String, _ trace: DirectionTrace,
                             evidence: @autoclosure () -> [TCPSegment]? = nil) -> WireVerdict {
        holds ? WireVerdict(passed: true, summary: yes)
            : WireVerdict(passed: false, summary: no, evidence: evidence() ?? Array(trace.segments.suffix(6)))
    }

    /// Every line ends in the terminator: for crlf no bare LF or CR, for lf no CR before LF,
    /// for cr no LF; and nothing trails the last terminator.
    private static func checkTerminator(_ terminator: Terminator, _ trace: DirectionTrace, from resume: WireProgress?,
                                        progress: inout WireProgress?) -> WireVerdict {
        let stream = trace.stream
        func segment(at offset: Int) -> [TCPSegment] {
            trace.carriers(of: offset..<(offset + 1)).map(\.segment)
        }
        func context(_ offset: Int) -> String {
            let from = max(0, offset - 20), to = min(stream.count, offset + 20)
            return "\"" + ByteEscaper.escape(stream[from..<to]) + "\""
        }
        let start = resume?.end ?? 0
        if let index = firstMisplaced(terminator, in: stream, from: start) {
            let summary: String
            switch terminator {
            case .crlf: summary = stream[index] == 10 ? "bare LF (no CR before it) at stream offset \(index)" : "bare CR (no LF after it) at stream offset \(index)"
            case .lf: summary = "CRLF where a bare LF terminator was expected, at stream offset \(index - 1)"
            case .cr, .nul, .custom: summary = "LF where a CR terminator was expected, at stream offset \(index)"
            }
            return WireVerdict(passed: false, summary: "\(summary): \(context(index))", evidence: segment(at: index))
        }
        var lines = resume?.lines ?? 0
        var end = start
        TerminatedLineFraming.forEachLine(in: stream, from: start, terminator: terminator.bytes) { line in
            lines += 1
            end = line.upperBound
            return true
        }
        let tail = end..<stream.count
        if !tail.isEmpty {
            return WireVerdict(passed: false, summary: "\(tail.count == 1 ? "the last byte ends" : "the last \(tail.count) bytes end") without a \(terminator) terminator: \(context(tail.lowerBound))",
                               evidence: segment(at: tail.lowerBound))
        }
        guard lines > 0 else { return nothingSent("line", trace) }
        progress = WireProgress(traceID: trace.id, end: end, lines: lines)
        return WireVerdict(passed: true, summary: lines == 1 ? "1 line, ending in \(terminator)" : "\(lines) lines, each ending in \(terminator)")
    }

    /// No line split across segments. Lines and data segments both run in stream order: one
    /// walk through the two finds the first line whose first carrier ends before it does.
    private static func checkLinesUnsplit(_ terminator: [UInt8], _ trace: DirectionTrace, _ unit: WireUnit, from resume: WireProgress?,
                                          progress: inout WireProgress?) -> WireVerdict {
        let start = resume?.end ?? 0
        var lines = resume?.lines ?? 0
        var end = start
        var split: Range<Int>?
        trace.dataSegments.withUnsafeBufferPointer { segments in
            var carrier = trace.carriers(of: start..<(start + 1)).startIndex
            TerminatedLineFraming.forEachLine(in: trace.stream, from: start, terminator: terminator) { line in
                while carrier < segments.count, segments[carrier].range.upperBound <= line.lowerBound { carrier += 1 }
                guard carrier < segments.count, segments[carrier].range.upperBound >= line.upperBound else {
                    split = line
                    return false
                }
                lines += 1
                end = line.upperBound
                return true
            }
        }
        if let line = split {
            let carriers = trace.carriers(of: line)
            let text = ByteEscaper.escape(trace.stream[line].prefix(60))
            return WireVerdict(passed: false, summary: "the line \"\(text)\" (\(line.count) bytes at offset \(line.lowerBound)) was split across \(unit.count(carriers.count))",
                               evidence: carriers.map(\.segment))
        }
        guard lines > 0 else { return nothingSent("line", trace) }
        progress = WireProgress(traceID: trace.id, end: end, lines: lines)
        return WireVerdict(passed: true, summary: unsplit(lines, "line", unit))
    }

    /// The offset of the first CR or LF that breaks `terminator`'s rule, found in a tight loop
    /// over the bytes: a check after every round trip scans the whole stream each time.
    private static func firstMisplaced(_ terminator: Terminator, in stream: [UInt8], from start: Int) -> Int? {
        stream.withUnsafeBufferPointer { bytes in
            for index in start..<bytes.count where bytes[index] == 10 || bytes[index] == 13 {
                let byte = bytes[index]
                let previous: UInt8? = index > 0 ? bytes[index - 1] : nil
                let next: UInt8? = index + 1 < bytes.count ? bytes[index + 1] : nil
                switch terminator {
                case .crlf:
                    if (byte == 10 && previous != 13) || (byte == 13 && next != 10 && next != nil) { return index }
                case .lf:
                    if byte == 10, previous == 13 { return index }
                case .cr:
                    if byte == 10 { return index }
                case .nul, .custom:
                    return nil
                }
            }
            return nil
        }
    }
}
