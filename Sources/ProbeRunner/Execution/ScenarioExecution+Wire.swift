import ProbeCapture
import ProbeResults
import ProbeScript

/// `assert wire`: judging a connection's captured traffic (see `WireSession`).
extension ScenarioExecution {
    func assertWire(_ assertion: WireAssertion, _ statement: Statement) async throws {
        let connection = try target(statement, allowClosed: true)
        guard let capture = wire.capture else {
            record(statement, "skipped: \(wire.unavailable ?? "capture is off")")
            return
        }
        let check = try check(for: assertion.property, on: connection, statement)
        let trace: ConnectionTrace
        do {
            trace = try wire.trace(capture, probePort: connection.localPort, peerPort: connection.remotePort,
                                   payloadPrefix: check.readsPayloads ? .max : WireSession.shownPayload)
        } catch {
            switch error {
            case .inconclusive(let why): throw failure(statement, "inconclusive: \(why)", connection)
            case .noPorts: throw failure(statement, "\(connection.label) has no known ports to find it in the capture", connection)
            case .unreadable(let why): throw failure(statement, "cannot read the capture: \(why)", connection)
            }
        }
        let tcpDirection = assertion.direction == .peer ? trace.fromPeer : trace.fromProbe
        var direction = tcpDirection
        var unit = WireUnit.segment
        if assertion.readsPlaintext, let tls = connection.tls {
            var recordsOnly = false
            if case .records = assertion.property { recordsOnly = true }
            switch wire.applicationTrace(of: trace, fromProbe: assertion.direction == .probe, probeIsClient: tls.role == .client, recordsOnly: recordsOnly) {
            case .success(let application): direction = application.trace
            case .failure(let problem): throw failure(statement, "inconclusive over TLS: \(problem.reason)", connection)
            }
            unit = .record
        } else if case .records = assertion.property {
            throw failure(statement, "records counts TLS records, and \(connection.label) does not speak TLS", connection)
        }
        let key = WireSession.ProgressKey(statement: statement.location, direction: assertion.direction, probePort: trace.probePort, peerPort: trace.peerPort)
        let verdict = wire.judge(check, on: direction, unit: unit, key)
        guard verdict.passed else {
            if unit == .record {
                let message = "wire from \(assertion.direction.rawValue), decrypted: \(verdict.summary)" + Self.recordRows(verdict.evidence, wire)
                throw await withRecentBytes(failure(statement, message, connection), connection)
            }
            let formatter = SegmentFormatter(start: trace.segments.first?.timestamp ?? 0, leftPort: trace.probePort,
                                             windowShifts: ConversationRenderer.windowShifts(trace.segments))
            var message = "wire from \(assertion.direction.rawValue): \(verdict.summary)"
            if !verdict.evidence.isEmpty {
                message += "\nsegments (→ probe to peer, ← peer to probe; times from the connection's first segment, not the scenario's start):\n" + verdict.evidence.map { "  " + formatter.row($0) }.joined(separator: "\n")
            }
            var failed = failure(statement, message, connection)
            failed.namedSegments = verdict.evidence.map { wire.offset(ofCaptured: $0.timestamp) }
            throw await withRecentBytes(failed, connection)
        }
        var why = ""
        if case .zeroWindow = assertion.property, assertion.direction == .probe { why = await whyTheProbeStoppedReading(connection) }
        let decrypted = unit == .record ? ", decrypted" : ""
        record(statement, "\(connection.label): wire from \(assertion.direction.rawValue)\(decrypted): \(verdict.summary)\(why)")
    }

    /// The records that show a failure, one row each: when, how long, and their plaintext.
    private static func recordRows(_ records: [TCPSegment], _ wire: WireSession) -> String {
        guard !records.isEmpty else { return "" }
        let rows = records.map { record -> String in
            let time = "+" + DurationFormat.fixed(wire.offset(ofCaptured: record.timestamp), places: 6) + "s"
            let text = ByteEscaper.escape(record.payload.prefix(60))
            return "  \(time)  \(record.length) bytes  \"\(text)\""
        }
        return "\nrecords (times from the scenario's start):\n" + rows.joined(separator: "\n")
    }

    /// Names the cause of the probe's own zero window when the scenario did not ask for it: the
    /// probe stops reading on its own once its high-water mark of unread bytes is reached.
    private func whyTheProbeStoppedReading(_ connection: ProbeConnection) async -> String {
        guard let (asked, onItsOwn) = try? await connection.onLoop({ ($0.pausedByScenario, $0.stoppedAtHighWater) }), onItsOwn else { return "" }
        let mark = "it stops reading on its own at \(InboundHandler.highWaterMark / 1024)KiB of bytes no expect has read"
        return asked ? " (by `pause reading` or `read slowly`, and also because \(mark))"
            : " (not asked for by `pause reading` or `read slowly`: \(mark), its high-water mark)"
    }

    private func check(for property: WireAssertion.Property, on connection: ProbeConnection, _ statement: Statement) throws -> WireCheck {
        let units = messageUnits(of: connection)
        switch property {
        case .terminator(let terminator): return .terminator(terminator)
        case .linesUnsplit: return .linesUnsplit(terminator: settings.terminator.bytes)
        case .lineInOneSegment(let match):
            let (description, matches) = try lineMatcher(match, statement)
            return .lineInOneSegment(description: description, terminator: settings.terminator.bytes, matches: matches)
        case .messageInOneSegment(let match):
            let (description, matches) = try lineMatcher(match, statement)
            return .messageInOneSegment(description: description, units: units, matches: matches)
        case .messagesUnsplit: return .messagesUnsplit(units)
        case .masked, .unmasked:
            guard connection.webSocket != nil else {
                throw failure(statement, "masked and unmasked check WebSocket frames, and \(connection.label) does not speak WebSocket", connection)
            }
            return .framesMasked(property == .masked)
        case .records(let op, let count): return .records(op, try resolve(count, "a count", Quantity.integer))
        case .segments(let op, let count): return .segments(op, try resolve(count, "a count", Quantity.integer))
        case .maxSegment(let op, let size): return .maxSegment(op, try resolve(size, "a size", Quantity.size))
        case .bytes(let op, let size): return .bytes(op, try resolve(size, "a size", Quantity.size))
        case .fin: return .fin
        case .rst: return .rst
        case .noFin: return .noFin
        case .noRst: return .noRst
        case .zeroWindow: return .zeroWindow
        }
    }
}

extension ScenarioExecution {
    /// How `connection`'s stream is cut into messages, for the wire checks of messages: its
    /// WebSocket frames, or the current framing.
    private func messageUnits(of connection: ProbeConnection) -> MessageUnits {
        if connection.webSocket != nil { return .webSocket }
        switch settings.messageFraming {
        case .lines: return .lines(terminator: settings.terminator.bytes)
        case .length(let header): return .length(header)
        }
    }

    /// A line (or message) match as a wire check reads it: its description and its test.
    private func lineMatcher(_ match: LineMatch, _ statement: Statement) throws -> (String, @Sendable ([UInt8]) -> Bool) {
        let rule = try lineRule(match, statement)
        let description: String
        switch match {
        case .exact(let template): description = ByteDiff.preview(template.render(lookup))
        case .contains(let template): description = "containing " + ByteDiff.preview(template.render(lookup))
        case .regex(let literal): description = literal.description
        case .any: description = "(any)"
        }
        let matcher = LineRuleBox(rule: rule)
        return (description, { matcher.matches($0) })
    }
}

/// Lets a compiled line rule be used from the capture's `@Sendable` closure.
private struct LineRuleBox: @unchecked Sendable {
    let rule: ExpectationMatcher.LineRule

    func matches(_ line: [UInt8]) -> Bool { ExpectationMatcher.matches(rule, line) }
}
