import ProbeCapture
import ProbeFraming
import ProbeResults
import ProbeScript

/// `assert wire`: judging a connection's captured traffic (see `WireSession`), for the scenario
/// or `parallel` copy that `context` is.
final class WireSteps {
    private unowned let context: any StepContext
    private let connections: ConnectionTable
    private let wire: WireSession
    /// The proxy opened under a name, if any: a proxy's legs are judged too.
    private let proxyNamed: (String) -> ProbeProxy?

    init(context: any StepContext, connections: ConnectionTable, wire: WireSession, proxy: @escaping (String) -> ProbeProxy?) {
        self.context = context
        self.connections = connections
        self.wire = wire
        self.proxyNamed = proxy
    }

    /// Runs `statement`, an `assert wire`.
    func run(_ statement: Statement) async throws {
        guard case .assertWire(let assertion) = statement.kind else { preconditionFailure("not a wire step: \(statement.text)") }
        let leg = try wireLeg(assertion.direction, statement)
        let connection = leg.connection
        guard let capture = wire.capture else {
            context.record(statement, "skipped: \(wire.unavailable ?? "capture is off")")
            return
        }
        let check = try check(for: assertion.property, on: leg, statement)
        let trace: ConnectionTrace
        do {
            trace = try wire.trace(capture, probePort: leg.probePort, peerPort: leg.peerPort,
                                   payloadPrefix: check.readsPayloads ? .max : WireSession.shownPayload)
        } catch {
            switch error {
            case .inconclusive(let why): throw StepFailure(statement, WireFailure.inconclusive(why), connection)
            case .noPorts: throw StepFailure(statement, WireFailure.noPorts(leg: leg.label), connection)
            case .unreadable(let why): throw StepFailure(statement, WireFailure.unreadableCapture(why), connection)
            }
        }
        let tcpDirection = leg.fromPeer ? trace.fromPeer : trace.fromProbe
        var direction = tcpDirection
        var unit = WireUnit.segment
        if assertion.readsPlaintext, let tls = connection?.tls {
            var recordsOnly = false
            if case .records = assertion.property { recordsOnly = true }
            switch wire.applicationTrace(of: trace, fromProbe: assertion.direction == .probe, probeIsClient: tls.role == .client, recordsOnly: recordsOnly) {
            case .success(let application): direction = application.trace
            case .failure(let problem): throw StepFailure(statement, WireFailure.inconclusiveOverTLS(problem.reason), connection)
            }
            unit = .record
        } else if case .records = assertion.property {
            throw StepFailure(statement, WireFailure.recordsWithoutTLS(leg: leg.label), connection)
        }
        let key = WireSession.ProgressKey(statement: statement.location, direction: assertion.direction, probePort: trace.probePort, peerPort: trace.peerPort)
        // The other direction over TCP, where a RST may have been provoked (not for TLS records).
        let opposite = unit == .segment ? (leg.fromPeer ? trace.fromProbe : trace.fromPeer) : nil
        let judgement = wire.judgement(of: check, on: direction, opposite: opposite, unit: unit, key)
        // A regex may backtrack for minutes over a long line: it searches beside the run, for as long as the deadline allows.
        let judged = Self.searchesByRegex(assertion.property) ? await SearchThreads.shared.result(of: judgement, within: context.remaining) : judgement()
        guard case let (verdict, reached)? = judged else {
            throw StepFailure(statement, WireFailure.regexOutlastedDeadline(deadline: context.settings.deadline), connection)
        }
        wire.keep(reached, for: key)
        guard verdict.passed else {
            if unit == .record, let connection {
                let reason = WireFailure.recordsFailed(direction: assertion.direction.phrase, summary: verdict.summary, rows: Self.recordRows(verdict.evidence, wire))
                throw await StepFailure(statement, reason, connection).withRecentBytes(of: connection)
            }
            let formatter = SegmentFormatter(start: trace.segments.first?.timestamp ?? 0, leftPort: trace.probePort,
                                             windowShifts: ConversationRenderer.windowShifts(trace.segments))
            let reason = WireFailure.segmentsFailed(leg: leg.connection == nil ? leg.label : nil, direction: assertion.direction.phrase,
                                                    summary: verdict.summary, rows: verdict.evidence.map { "  " + formatter.row($0) })
            var failed = StepFailure(statement, reason, connection)
            failed.namedSegments = verdict.evidence.map { wire.offset(ofCaptured: $0.timestamp) }
            guard let connection else { throw failed }
            throw await failed.withRecentBytes(of: connection)
        }
        var why = ""
        if case .zeroWindow = assertion.property, assertion.direction == .probe, let connection { why = await whyTheProbeStoppedReading(connection) }
        let decrypted = unit == .record ? ", decrypted" : ""
        context.record(statement, "\(leg.label): wire \(assertion.direction.phrase)\(decrypted): \(verdict.summary)\(why)")
    }

    /// The leg of a connection a wire check judges: a probe connection's, `from peer|probe`;
    /// a proxy's (`p:` its latest connection, `p.N:` its Nth), `from client` its front leg and
    /// `from server` its back leg.
    private func wireLeg(_ direction: WireAssertion.Direction, _ statement: Statement) throws -> WireLeg {
        if let name = statement.connection?.text, let proxy = proxyNamed(name) {
            guard direction != .peer, direction != .probe else {
                throw StepFailure(statement, WireFailure.probeDirectionOnProxy(direction: direction.phrase))
            }
            guard let link = proxy.link(statement.linkNumber) else {
                throw StepFailure(statement, WireFailure.noSuchProxyLink(proxy: proxy.name, links: proxy.all.count))
            }
            let front = direction == .client || direction == .toClient
            let ports = front ? link.frontPorts : link.backPorts
            return WireLeg(label: "proxy '\(proxy.name)' connection \(link.number) \(front ? "front" : "back") leg",
                           probePort: ports.local, peerPort: ports.remote, fromPeer: direction == .client || direction == .server, connection: nil)
        }
        let connection = try connections.target(statement, allowClosed: true)
        guard direction == .peer || direction == .probe else {
            throw StepFailure(statement, WireFailure.proxyDirectionOnConnection(direction: direction.phrase, connection: connection.label), connection)
        }
        return WireLeg(label: connection.label, probePort: connection.localPort, peerPort: connection.remotePort,
                       fromPeer: direction == .peer, connection: connection)
    }

    /// The records that show a failure, one row each: when, how long, and their plaintext.
    private static func recordRows(_ records: [TCPSegment], _ wire: WireSession) -> [String] {
        records.map { record -> String in
            let time = "+" + DurationFormat.fixed(wire.offset(ofCaptured: record.timestamp), places: 6) + "s"
            let text = ByteEscaper.escape(record.payload.prefix(60))
            return "  \(time)  \(record.length) bytes  \"\(text)\""
        }
    }

    /// Names the cause of the probe's own zero window when the scenario did not ask for it: the
    /// probe stops reading on its own once its high-water mark of unread bytes is reached.
    private func whyTheProbeStoppedReading(_ connection: ProbeConnection) async -> String {
        guard let (asked, onItsOwn) = try? await connection.onLoop({ ($0.pausedByScenario, $0.stoppedAtHighWater) }), onItsOwn else { return "" }
        let mark = "it stops reading on its own at \(ExpectQueue.highWaterMark / 1024)KiB of bytes no expect has read"
        return asked ? " (by `pause reading` or `read slowly`, and also because \(mark))"
            : " (not asked for by `pause reading` or `read slowly`: \(mark), its high-water mark)"
    }

    /// Whether judging `property` searches a regex in each line or message.
    private static func searchesByRegex(_ property: WireAssertion.Property) -> Bool {
        switch property {
        case .lineInOneSegment(.regex), .messageInOneSegment(.regex): return true
        default: return false
        }
    }

    private func check(for property: WireAssertion.Property, on leg: WireLeg, _ statement: Statement) throws -> WireCheck {
        let units = messageUnits(of: leg.connection)
        // Messages are cut where the framing took effect.
        let start = leg.connection.map { $0.framingStart(fromPeer: leg.fromPeer) } ?? 0
        switch property {
        case .terminator(let terminator): return .terminator(terminator)
        case .linesUnsplit: return .linesUnsplit(terminator: context.settings.terminator.bytes)
        case .lineInOneSegment(let match):
            let (description, matches) = try lineMatcher(match, statement)
            return .lineInOneSegment(description: description, terminator: context.settings.terminator.bytes, matches: matches)
        case .messageInOneSegment(let match):
            let (description, matches) = try lineMatcher(match, statement)
            return .messageInOneSegment(description: description, units: units, from: start, matches: matches)
        case .messagesUnsplit: return .messagesUnsplit(units, from: start)
        case .framesUnsplit:
            if leg.connection?.http2 != nil { return .messagesUnsplit(.http2Frames) }
            try require(leg, speaks: "WebSocket or HTTP/2", leg.connection?.webSocket != nil, "frames unsplit checks WebSocket or HTTP/2 frames", statement)
            return .messagesUnsplit(.webSocketFrames)
        case .frameInOneSegment(let type):
            try require(leg, speaks: "HTTP/2", leg.connection?.http2 != nil, "frame … in 1 segment checks HTTP/2 frames", statement)
            return .messageInOneSegment(description: HTTP2Names.typeName(type), units: .http2Frames, matches: { $0.count >= HTTP2Frame.headerSize && $0[3] == type })
        case .masked, .unmasked:
            try require(leg, speaks: "WebSocket", leg.connection?.webSocket != nil, "masked and unmasked check WebSocket frames", statement)
            return .framesMasked(property == .masked)
        case .records(let op, let count): return .records(op, try context.resolve(count, "a count", Quantity.integer))
        case .segments(let op, let count): return .segments(op, try context.resolve(count, "a count", Quantity.integer))
        case .retransmissions(let op, let count): return .retransmissions(op, try context.resolve(count, "a count", Quantity.integer))
        case .maxSegment(let op, let size): return .maxSegment(op, try context.resolve(size, "a size", Quantity.size))
        case .bytes(let op, let size): return .bytes(op, try context.resolve(size, "a size", Quantity.size))
        case .fin: return .fin
        case .rst: return .rst
        case .noFin: return .noFin
        case .noRst: return .noRst
        case .zeroWindow: return .zeroWindow
        }
    }

    /// Fails `statement`'s `check` unless the leg `speaks` the protocols it reads.
    private func require(_ leg: WireLeg, speaks protocols: String, _ speaks: Bool, _ check: String, _ statement: Statement) throws {
        guard !speaks else { return }
        throw StepFailure(statement, WireFailure.needsProtocol(check: check, leg: leg.label, protocols: protocols), leg.connection)
    }

    /// How `connection`'s stream is cut into messages, for the wire checks of messages: its
    /// WebSocket messages, or the current framing.
    private func messageUnits(of connection: ProbeConnection?) -> MessageUnits {
        if connection?.webSocket != nil { return .webSocket }
        switch context.settings.messageFraming {
        case .lines: return .lines(terminator: context.settings.terminator.bytes)
        case .length(let header): return .length(header)
        }
    }

    /// A line (or message) match as a wire check reads it: its description and its test.
    private func lineMatcher(_ match: LineMatch, _ statement: Statement) throws -> (String, @Sendable ([UInt8]) -> Bool) {
        let rule = try context.lineRule(match, statement)
        let description: String
        switch match {
        case .exact(let template): description = context.pattern(template).preview
        case .contains(let template): description = "containing " + ByteEscaper.preview(context.render(template))
        case .regex(let literal): description = literal.description
        case .any: description = "(any)"
        }
        return (description, { ExpectationMatcher.matches(rule, $0) })
    }
}

/// The leg of a TCP connection a wire check reads, and which side of it.
private struct WireLeg {
    let label: String
    let probePort: Int?
    let peerPort: Int?
    /// The side away from the probe (the peer's; on a proxy leg, the client's or server's).
    let fromPeer: Bool
    /// The probe's own connection; nil for a proxy's leg.
    let connection: ProbeConnection?
}
