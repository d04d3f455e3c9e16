import FoundationEssentials
import ProbeCapture
import ProbeHost
import ProbeResults
import ProbeScript
#if canImport(Glibc)
import Glibc
#endif

/// Capture for one run: starting it, `assert wire`, and checking injected splits on the wire.
extension ScenarioExecution {
    /// One `assert wire` statement on one direction of one connection.
    struct WireProgressKey: Hashable {
        var statement: SourceLocation
        var direction: WireAssertion.Direction
        var probePort: Int
        var peerPort: Int
    }

    var needsCapture: Bool {
        options.capture.always || scenario.allStatements.contains { statement in
            switch statement.kind {
            case .assertWire, .set(.capture(.on)), .set(.capture(.headers)): return true
            default: return false
            }
        }
    }

    /// How much of each packet the capture keeps: `--snaplen`, or only the headers when the
    /// scenario says `set capture headers`.
    private var snapLength: Int {
        let headersOnly = scenario.allStatements.contains { if case .set(.capture(.headers)) = $0.kind { true } else { false } }
        return headersOnly ? min(options.capture.snapLength, PcapCapture.minimumSnapLength) : options.capture.snapLength
    }

    /// Starts the capture when the scenario needs one; without privileges, notes why wire
    /// assertions will be skipped, or fails when capture is required.
    func startCapture() throws {
        guard needsCapture else { return }
        let directory = options.capture.directory
        let base = ScenarioLoader.defaultTitle(scenario.path).map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        let name = "\(String(base))-\(Int(Date().timeIntervalSince1970 * 1000))-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).pcap"
        let path = joinPath(directory, name)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let wanted = options.capture
            let capture = try wanted.open?(path, snapLength)
                ?? PcapCapture(interface: wanted.interface, path: path, bufferSize: wanted.bufferSize, snapLength: snapLength)
            self.capture = capture
            captureHold = CaptureHold(capture)
            record(nil, "capturing on \(options.capture.interface) to \(path)")
        } catch {
            let location = SourceLocation(file: scenario.path, line: 1, column: 1)
            if options.capture.required {
                throw StepFailure(.environment, at: location, step: "capture", message: "cannot capture: \(error) (--require-capture)")
            }
            captureUnavailable = "\(error)"
            notes.append("wire assertions skipped: \(error)")
        }
    }

    /// Adds a port to the capture filter before traffic on it starts.
    func watch(port: Int, _ statement: Statement) throws {
        do {
            try capture?.watch(port: port)
        } catch {
            throw StepFailure(.environment, at: statement.location, step: statement.text, message: "\(error)")
        }
    }

    func assertWire(_ assertion: WireAssertion, _ statement: Statement) async throws {
        let connection = try target(statement, allowClosed: true)
        guard let capture else {
            record(statement, "skipped: \(captureUnavailable ?? "capture is off")")
            return
        }
        let check = try check(for: assertion.property, statement)
        let trace = try connectionTrace(connection, capture, statement, payloadPrefix: check.readsPayloads ? .max : Self.shownPayload)
        let direction = assertion.direction == .peer ? trace.fromPeer : trace.fromProbe
        let key = WireProgressKey(statement: statement.location, direction: assertion.direction, probePort: trace.probePort, peerPort: trace.peerPort)
        var progress = wireProgress[key]
        let verdict = WireEvaluator.evaluate(check, on: direction, progress: &progress)
        wireProgress[key] = progress
        guard verdict.passed else {
            let formatter = SegmentFormatter(start: trace.segments.first?.timestamp ?? 0, leftPort: trace.probePort)
            var message = "wire from \(assertion.direction.rawValue): \(verdict.summary)"
            if !verdict.evidence.isEmpty {
                message += "\nsegments (→ probe to peer, ← peer to probe):\n" + verdict.evidence.map { "  " + formatter.row($0) }.joined(separator: "\n")
            }
            throw await withRecentBytes(failure(statement, message, connection), connection)
        }
        var why = ""
        if case .zeroWindow = assertion.property, assertion.direction == .probe { why = await whyTheProbeStoppedReading(connection) }
        record(statement, "\(connection.label): wire from \(assertion.direction.rawValue): \(verdict.summary)\(why)")
    }

    /// Names the cause of the probe's own zero window when the scenario did not ask for it: the
    /// probe stops reading on its own once its high-water mark of unread bytes is reached.
    private func whyTheProbeStoppedReading(_ connection: ProbeConnection) async -> String {
        guard let (asked, onItsOwn) = try? await connection.onLoop({ ($0.pausedByScenario, $0.stoppedAtHighWater) }), onItsOwn else { return "" }
        let mark = "it stops reading on its own at \(InboundHandler.highWaterMark / 1024)KiB of bytes no expect has read"
        return asked ? " (by `pause reading` or `read slowly`, and also because \(mark))"
            : " (not asked for by `pause reading` or `read slowly`: \(mark), its high-water mark)"
    }

    /// How much of each payload is read back for checks of lengths and flags: enough for the
    /// rows that show failing segments, so a gigabyte transfer is judged without holding it.
    static let shownPayload = 64

    /// The connection's traffic captured so far, each payload cut to `payloadPrefix` bytes; a
    /// capture that dropped packets is inconclusive.
    private func connectionTrace(_ connection: ProbeConnection, _ capture: any PacketCapture, _ statement: Statement,
                                 payloadPrefix: Int) throws -> ConnectionTrace {
        capture.sync()
        if let incompleteness = capture.stats().incompleteness {
            throw failure(statement, "inconclusive: \(incompleteness), so the wire cannot be judged", connection)
        }
        guard let probePort = connection.localPort, let peerPort = connection.remotePort else {
            throw failure(statement, "\(connection.label) has no known ports to find it in the capture", connection)
        }
        let segments: [TCPSegment]
        do {
            segments = try capture.segments(payloadPrefix: payloadPrefix)
        } catch {
            var tooLarge = false
            if case .tooLarge? = error as? PcapFile.ReadError { tooLarge = true }
            throw failure(statement, (tooLarge ? "inconclusive: " : "cannot read the capture: ") + "\(error)", connection)
        }
        return traceCache.trace(of: segments, probePort: probePort, peerPort: peerPort, payloadPrefix: payloadPrefix)
    }

    private func check(for property: WireAssertion.Property, _ statement: Statement) throws -> WireCheck {
        switch property {
        case .terminator(let terminator): return .terminator(terminator)
        case .linesUnsplit: return .linesUnsplit(terminator: settings.terminator.bytes)
        case .lineInOneSegment(let match):
            let rule = try lineRule(match, statement)
            let description: String
            switch match {
            case .exact(let template): description = ByteDiff.preview(template.render(lookup))
            case .contains(let template): description = "containing " + ByteDiff.preview(template.render(lookup))
            case .regex(let literal): description = literal.description
            case .any: description = "(any)"
            }
            let matcher = LineRuleBox(rule: rule)
            return .lineInOneSegment(description: description, terminator: settings.terminator.bytes, matches: { matcher.matches($0) })
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

    /// Checks each chunked or split send on the wire and says whether its writes left as separate segments.
    func verifyInjectedSplits() {
        guard let capture, !injectedSplits.isEmpty else { return }
        capture.sync()
        guard let segments = try? capture.segments(payloadPrefix: 0) else { return }
        for split in injectedSplits {
            guard let probePort = split.connection.localPort, let peerPort = split.connection.remotePort else { continue }
            let trace = ConnectionTrace(segments: segments, probePort: probePort, peerPort: peerPort).fromProbe
            notes.append("\(split.statement.location.fileAndLine) \(split.statement.text): \(split.verdict(on: trace))")
        }
    }

    /// Stops the capture, keeps or removes its file as `--keep-pcap` says, and names a kept file in the notes.
    func finishCapture(passed: Bool) {
        guard let capture else { return }
        if options.recordWire { recordWire(capture) }
        let stats = capture.stop()
        if let incompleteness = stats.incompleteness { notes.append("\(incompleteness): the pcap is incomplete") }
        if let held = captureHold?.summary { notes.append(held) }
        let keep: Bool
        switch options.capture.keep {
        case .always: keep = true
        case .never: keep = false
        case .failed: keep = !passed
        }
        if keep {
            notes.append("pcap: \(capture.path)")
        } else {
            try? FileManager.default.removeItem(atPath: capture.path)
        }
        self.capture = nil
        captureHold = nil
    }
}

extension ScenarioExecution {
    /// Keeps the segments of this run's connections (at most 2000) for the ladder diagram.
    func recordWire(_ capture: any PacketCapture) {
        capture.sync()
        guard let segments = try? capture.segments(payloadPrefix: Self.shownPayload) else { return }
        guard let start = segments.first?.timestamp else { return }
        for connection in table.all {
            guard let probePort = connection.localPort, let peerPort = connection.remotePort else { continue }
            for segment in ConnectionTrace(segments: segments, probePort: probePort, peerPort: peerPort).segments {
                wire.append(WireEvent(offset: segment.timestamp - start, connection: connection.label, fromProbe: segment.sourcePort == probePort,
                                      flags: segment.flags.description, length: segment.length,
                                      preview: ByteEscaper.escape(segment.payload.prefix(40))))
            }
        }
        wire.sort { $0.offset < $1.offset }
        if wire.count > 2000 { wire = Array(wire.prefix(2000)) }
    }
}

/// Lets a compiled line rule be used from the capture's `@Sendable` closure.
private struct LineRuleBox: @unchecked Sendable {
    let rule: ExpectationMatcher.LineRule

    func matches(_ line: [UInt8]) -> Bool { ExpectationMatcher.matches(rule, line) }
}
