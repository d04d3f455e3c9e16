import FoundationEssentials
import ProbeCapture
import ProbeFraming
import ProbeHost
import ProbeResults
import ProbeScript
#if canImport(Glibc)
import Glibc
#endif

/// A run's capture and what is judged on it: the capture and its hold (shared with the copies
/// of a `parallel` block), the traces earlier wire checks built, how far each `assert wire`
/// has judged its stream, the sends split on purpose, and the segments kept for the report.
/// The capture comes from `CaptureSettings.open` when set, so tests hand it a fake one. One a
/// scenario or copy, touched on the run's loop and the tasks of its steps, one at a time.
final class WireSession {
    /// One `assert wire` statement on one direction of one connection.
    struct ProgressKey: Hashable {
        var statement: SourceLocation
        var direction: WireAssertion.Direction
        var probePort: Int
        var peerPort: Int
    }

    /// How much of each payload is read back for checks of lengths and flags: enough for the
    /// rows that show failing segments, so a gigabyte transfer is judged without holding it.
    static let shownPayload = 64

    private(set) var capture: (any PacketCapture)?
    /// Holds the run's traffic while the capture falls behind; set with the capture.
    private(set) var hold: CaptureHold?
    /// Why there is no capture although the scenario asks for one.
    private(set) var unavailable: String?
    private var injectedSplits: [InjectedSplit] = []
    private var resetEnds: [ResetEnd] = []
    /// The traces of earlier wire checks, extended by later ones.
    private var traceCache = ConnectionTraceCache()
    private var progress: [ProgressKey: WireProgress] = [:]
    /// The segments of the run's connections kept for the ladder diagram (at most 2000).
    private(set) var events: [WireEvent] = []
    /// When the scenario started, on the capture's clock (seconds since 1970), so its segments
    /// are timed as its step log is.
    private var scenarioStart = 0.0
    /// The TLS secrets of the run's connections, written beside a kept pcap.
    let keyLog: TLSKeyLog

    init() {
        keyLog = TLSKeyLog()
    }

    /// A copy of a `parallel` block's session: the parent's capture, nothing judged yet.
    init(sharingCaptureOf parent: WireSession) {
        keyLog = parent.keyLog
        capture = parent.capture
        hold = parent.hold
        unavailable = parent.unavailable
        scenarioStart = parent.scenarioStart
    }

    /// True when `scenario` asks for capture, or the run captures every scenario.
    static func isNeeded(by scenario: Scenario, _ settings: CaptureSettings) -> Bool {
        settings.always || scenario.containsStatement { statement in
            switch statement.kind {
            case .assertWire, .set(.capture(.on)), .set(.capture(.headers)): return true
            default: return false
            }
        }
    }

    /// Starts the capture when the scenario needs one, logging where it goes; without
    /// privileges, notes why wire assertions will be skipped, or fails when capture is required.
    func start(for scenario: Scenario, _ settings: CaptureSettings, _ record: inout RunRecord, at offset: Duration) throws {
        guard Self.isNeeded(by: scenario, settings) else { return }
        scenarioStart = Date().timeIntervalSince1970 - Double(offset / .microseconds(1)) / 1e6
        let directory = settings.directory
        let base = ScenarioLoader.defaultTitle(scenario.path).map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        let name = "\(String(base))-\(Int(Date().timeIntervalSince1970 * 1000))-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).pcap"
        let path = joinPath(directory, name)
        let headersOnly = scenario.containsStatement { if case .set(.capture(.headers)) = $0.kind { true } else { false } }
        let snapLength = headersOnly ? min(settings.snapLength, PcapCapture.minimumSnapLength) : settings.snapLength
        do {
            try PrivateDirectory.prepare(directory, tightened: settings.directoryIsDefault)
        } catch {
            throw StepFailure(at: SourceLocation(file: scenario.path, line: 1, column: 1), step: "capture",
                              reason: WireFailure.cannotPrepareCapture(error: "\(error)"))
        }
        // A network's link is a device made during the run: only `any` sees it (and loopback).
        let makesNetwork = scenario.containsStatement { if case .network = $0.kind { true } else { false } }
        let interface = makesNetwork && settings.interface == "lo" ? "any" : settings.interface
        do {
            let capture = try settings.open?(path, snapLength)
                ?? PcapCapture(interface: interface, path: path, bufferSize: settings.bufferSize, snapLength: snapLength)
            self.capture = capture
            hold = CaptureHold(capture)
            keyLog.keepLines()
            record.log("capturing on \(interface) to \(path)", at: offset, nil)
        } catch {
            let location = SourceLocation(file: scenario.path, line: 1, column: 1)
            if settings.required {
                throw StepFailure(at: location, step: "capture", reason: WireFailure.cannotCapture(error: "\(error)"))
            }
            unavailable = "\(error)"
            record.notes.append("wire assertions skipped: \(error)")
        }
    }

    /// A captured segment's time as the step log counts: seconds since the scenario started.
    func offset(ofCaptured timestamp: Double) -> Double {
        timestamp - scenarioStart
    }

    /// Adds a port to the capture filter before traffic on it starts.
    func watch(port: Int, _ statement: Statement) throws {
        do {
            try capture?.watch(port: port)
        } catch {
            throw StepFailure(statement, WireFailure.cannotWatchPort(error: "\(error)"))
        }
    }

    /// The connection between the two ports is the scenario's own: its pcap keeps it, and no
    /// other scenario's does, though they may watch the same server port.
    func claim(probePort: Int?, peerPort: Int?) {
        Self.claim(probePort: probePort, peerPort: peerPort, on: capture)
    }

    /// `claim` on `capture`, for what holds the capture alone off the run's tasks (a proxy's links).
    static func claim(probePort: Int?, peerPort: Int?, on capture: (any PacketCapture)?) {
        guard let probePort, let peerPort else { return }
        capture?.claim(probePort: probePort, peerPort: peerPort)
    }

    /// Keeps a send's cuts (stream offsets) to check on the wire that its writes left apart.
    func noteSplit(_ statement: Statement, _ connection: ProbeConnection, cuts: [Int]) {
        guard capture != nil else { return }
        injectedSplits.append(InjectedSplit(statement: statement, connection: connection, cuts: cuts))
    }

    /// Keeps an HTTP/2 expect that a RST decided, with how much of the peer's stream the probe
    /// had read, to show on the wire what the RST discarded.
    func noteReset(_ statement: Statement, _ connection: ProbeConnection, received: Int) {
        guard capture != nil else { return }
        resetEnds.append(ResetEnd(statement: statement, connection: connection, received: received))
    }

    /// Why a connection's traffic cannot be judged.
    enum TraceProblem: Error {
        /// The capture dropped packets or cut payloads: a verdict would be a guess.
        case inconclusive(String)
        case noPorts
        case unreadable(String)
    }

    /// The traffic of the connection between `probePort` and `peerPort` captured so far, each
    /// payload cut to `payloadPrefix` bytes.
    func trace(_ capture: any PacketCapture, probePort: Int?, peerPort: Int?, payloadPrefix: Int) throws(TraceProblem) -> ConnectionTrace {
        capture.sync()
        if let incompleteness = capture.stats().incompleteness { throw .inconclusive("\(incompleteness), so the wire cannot be judged") }
        guard let probePort, let peerPort else { throw .noPorts }
        let segments: [TCPSegment]
        do {
            segments = try capture.segments(payloadPrefix: payloadPrefix)
        } catch {
            if case .tooLarge? = error as? PcapFile.ReadError { throw .inconclusive("\(error)") }
            throw .unreadable("\(error)")
        }
        return traceCache.trace(of: segments, probePort: probePort, peerPort: peerPort, payloadPrefix: payloadPrefix)
    }

    /// The judgement of `check` on `direction`, going on from where this statement's last
    /// judgement of that stream stopped: its verdict, and how far it got for `keep(_:for:)`. It
    /// reads nothing of the session when it runs, so it may run on another thread.
    func judgement(of check: WireCheck, on direction: DirectionTrace, opposite: DirectionTrace?, unit: WireUnit,
                   _ key: ProgressKey) -> @Sendable () -> (WireVerdict, WireProgress?) {
        let start = progress[key]
        return {
            var reached = start
            return (WireEvaluator.evaluate(check, on: direction, unit: unit, opposite: opposite, progress: &reached), reached)
        }
    }

    /// Keeps how far a judgement of `key`'s stream got, where the statement's next one goes on.
    func keep(_ reached: WireProgress?, for key: ProgressKey) {
        progress[key] = reached
    }

    /// Why a TLS connection's capture cannot be read back.
    struct DecryptionProblem: Error {
        let reason: String
    }

    /// One direction of a TLS connection's capture, decrypted with the run's key log: its
    /// application data records as the trace's segments, after the plaintext sent before TLS
    /// began unless `recordsOnly`.
    func applicationTrace(of trace: ConnectionTrace, fromProbe: Bool, probeIsClient: Bool, recordsOnly: Bool = false) -> Result<TLSApplicationTrace, DecryptionProblem> {
        let client = probeIsClient ? trace.fromProbe : trace.fromPeer
        let server = probeIsClient ? trace.fromPeer : trace.fromProbe
        let conversation = TLSConversation(client: client.stream, server: server.stream, keys: TLSKeyMaterial(lines: keyLog.all))
        if let problem = conversation.problem { return .failure(DecryptionProblem(reason: problem)) }
        let fromClient = fromProbe == probeIsClient
        return .success(TLSApplicationTrace(records: fromClient ? conversation.clientRecords : conversation.serverRecords,
                                            tlsStart: fromClient ? conversation.clientStart : conversation.serverStart,
                                            tcp: fromClient ? client : server, plaintextBefore: !recordsOnly))
    }

    /// Makes the checks kept for the run's end, from one read of the capture, and notes each
    /// under its step: whether each chunked or split send's writes left as separate segments
    /// (over TLS: as separate records, and those as separate segments), and for each HTTP/2
    /// expect a RST decided, what the peer sent that the probe never read (a GOAWAY the RST
    /// lost, or nothing).
    func verifyAtEnd(_ record: inout RunRecord) {
        guard let capture, !injectedSplits.isEmpty || !resetEnds.isEmpty else { return }
        capture.sync()
        let readsPayloads = !resetEnds.isEmpty || injectedSplits.contains { $0.connection.tls != nil }
        guard let segments = try? capture.segments(payloadPrefix: readsPayloads ? .max : 0) else { return }
        func note(_ statement: Statement, _ connection: ProbeConnection, fromProbe: Bool,
                  _ verdict: (_ tcp: DirectionTrace, _ application: TLSApplicationTrace?) -> String) {
            guard let probePort = connection.localPort, let peerPort = connection.remotePort else { return }
            let trace = ConnectionTrace(segments: segments, probePort: probePort, peerPort: peerPort)
            let tcp = fromProbe ? trace.fromProbe : trace.fromPeer
            let text: String
            if let tls = connection.tls {
                switch applicationTrace(of: trace, fromProbe: fromProbe, probeIsClient: tls.role == .client) {
                case .success(let application): text = verdict(tcp, application)
                case .failure(let problem): text = "not verified: \(problem.reason)"
                }
            } else {
                text = verdict(tcp, nil)
            }
            record.notes.append("\(statement.location.fileAndLine) \(statement.text): \(text)")
        }
        for split in injectedSplits {
            note(split.statement, split.connection, fromProbe: true) { tcp, application in
                application.map { split.verdict(on: $0, tcp: tcp) } ?? split.verdict(on: tcp)
            }
        }
        for end in resetEnds {
            note(end.statement, end.connection, fromProbe: false) { tcp, application in end.verdict(on: application?.trace ?? tcp) }
        }
    }

    /// Stops the capture, keeps or removes its file as `--keep-pcap` says, names a kept file in
    /// the notes, and keeps `connections`' segments for the report when `settings` ask.
    func finish(passed: Bool, _ settings: CaptureSettings, keepingEventsOf connections: [ProbeConnection]?, proxyLegs: [ProxyLegPorts] = [],
                         dropped: [(network: String, packets: [PacketLink.Dropped])] = [], _ record: inout RunRecord) {
        guard let capture else { return }
        if let connections { keepEvents(of: connections, proxyLegs, dropped, capture) }
        let stats = capture.stop()
        if let incompleteness = stats.incompleteness { record.notes.append("\(incompleteness): the pcap is incomplete") }
        if let held = hold?.summary { record.notes.append(held) }
        let keep: Bool
        switch settings.keep {
        case .always: keep = true
        case .never: keep = false
        case .failed: keep = !passed
        }
        if keep {
            record.notes.append("pcap: \(capture.path)")
            if !keyLog.isEmpty { writeKeys(beside: capture.path, &record) }
        } else {
            try? FileManager.default.removeItem(atPath: capture.path)
        }
        self.capture = nil
        hold = nil
    }

    /// Writes the TLS keys as NAME.keys beside NAME.pcap, for Wireshark and `tcpprobe show`.
    private func writeKeys(beside pcap: String, _ record: inout RunRecord) {
        let path = TLSKeyMaterial.path(besideCapture: pcap)
        do {
            try keyLog.write(to: path)
            record.notes.append("TLS keys: \(path)")
        } catch {
            record.notes.append("\(error)")
        }
    }

    /// Keeps the segments of `connections` (at most 2000) for the ladder diagram, and over TLS
    /// their records, decrypted, and over WebSocket or HTTP/2 their frames, each at the time of the
    /// segment that completed it; and the segments of each proxy's legs, on their own lifeline
    /// (a probe connection that is one of those legs seen from its other end is left out); and
    /// the packets of those connections a network's link dropped.
    private func keepEvents(of connections: [ProbeConnection], _ proxyLegs: [ProxyLegPorts],
                                     _ dropped: [(network: String, packets: [PacketLink.Dropped])], _ capture: any PacketCapture) {
        capture.sync()
        let readsPayloads = connections.contains { $0.tls != nil || $0.webSocket != nil || $0.http2 != nil }
        guard let segments = try? capture.segments(payloadPrefix: readsPayloads ? .max : Self.shownPayload) else { return }
        var legs: Set<[Int]> = []
        for proxyLeg in proxyLegs {
            legs.insert([proxyLeg.otherPort, proxyLeg.proxyPort])
            let trace = ConnectionTrace(segments: segments, probePort: proxyLeg.proxyPort, peerPort: proxyLeg.otherPort)
            keepSegments(of: trace, proxyLeg.label, leg: proxyLeg.leg)
        }
        for connection in connections {
            guard let probePort = connection.localPort, let peerPort = connection.remotePort, !legs.contains([probePort, peerPort]) else { continue }
            let trace = ConnectionTrace(segments: segments, probePort: probePort, peerPort: peerPort)
            keepSegments(of: trace, connection.label, leg: nil)
            for (network, packets) in dropped { keepDrops(packets, by: network, of: trace, connection.label) }
            if let tls = connection.tls { keepRecords(of: trace, tls, connection.label) }
            if connection.webSocket != nil || connection.http2 != nil { keepFrames(of: trace, connection) }
        }
        events.sort { $0.offset < $1.offset }
        if events.count > 2000 { events = Array(events.prefix(2000)) }
    }

    /// Each segment of `trace`, with its sequence and acknowledgement numbers relative to
    /// each side's first and its window in bytes, for the ladder and the time–sequence graph.
    private func keepSegments(of trace: ConnectionTrace, _ label: String, leg: WireEvent.ProxyLeg?) {
        var first: [Int: UInt32] = [:]
        for segment in trace.segments where first[segment.sourcePort] == nil { first[segment.sourcePort] = segment.sequence }
        let windows = SegmentFormatter(start: 0, leftPort: trace.probePort, windowShifts: ConversationRenderer.windowShifts(trace.segments))
        for segment in trace.segments {
            let acknowledged = segment.flags.contains(.ack) ? first[segment.destinationPort].map { Int(segment.acknowledgement &- $0) } : nil
            let numbers = WireEvent.TCPNumbers(sequence: Int(segment.sequence &- first[segment.sourcePort]!), acknowledgement: acknowledged,
                                               window: windows.window(of: segment))
            events.append(WireEvent(offset: offset(ofCaptured: segment.timestamp), connection: label, fromProbe: segment.sourcePort == trace.probePort,
                                    flags: segment.flags.description, length: segment.length,
                                    preview: ByteEscaper.escape(segment.payload.prefix(40)), proxyLeg: leg, tcp: numbers))
        }
    }

    /// The packets of `trace`'s connection that network `network`'s link dropped: one sent by
    /// the probe was captured before the link dropped it, and is marked; one sent by the peer
    /// never reached the capture, and is added.
    private func keepDrops(_ packets: [PacketLink.Dropped], by network: String, of trace: ConnectionTrace, _ label: String) {
        let first = [trace.probePort: trace.fromProbe.segments.first?.sequence, trace.peerPort: trace.fromPeer.segments.first?.sequence]
        for packet in packets {
            guard let segment = packet.head.withUnsafeBytes({ PacketDecoder.segment(linkType: PacketDecoder.raw, data: $0, timestamp: packet.time) }),
                  [trace.probePort, trace.peerPort].contains(segment.sourcePort), [trace.probePort, trace.peerPort].contains(segment.destinationPort),
                  let base = first[segment.sourcePort] ?? nil else { continue }
            let fromProbe = segment.sourcePort == trace.probePort
            let sequence = Int(segment.sequence &- base)
            let sent = events.lastIndex { event in
                event.connection == label && event.fromProbe == fromProbe && event.droppedBy == nil && event.tcp?.sequence == sequence
                    && event.length == segment.length && event.offset <= offset(ofCaptured: packet.time) + 0.001
            }
            if fromProbe, let sent {
                events[sent].droppedBy = network
            } else {
                events.append(WireEvent(offset: offset(ofCaptured: packet.time), connection: label, fromProbe: fromProbe, flags: segment.flags.description,
                                        length: segment.length, preview: "", tcp: WireEvent.TCPNumbers(sequence: sequence, acknowledgement: nil, window: 0),
                                        droppedBy: network))
            }
        }
    }

    /// The WebSocket or HTTP/2 frames of `connection` both ways (over TLS, in the decrypted
    /// stream), each named as the step log names it.
    private func keepFrames(of trace: ConnectionTrace, _ connection: ProbeConnection) {
        let webSocket = connection.webSocket != nil
        for fromProbe in [true, false] {
            var direction = fromProbe ? trace.fromProbe : trace.fromPeer
            if let tls = connection.tls {
                guard case .success(let application) = applicationTrace(of: trace, fromProbe: fromProbe, probeIsClient: tls.role == .client) else { continue }
                direction = application.trace
            }
            let frames: [(range: Range<Int>, payload: Int, name: String)] = webSocket
                ? WebSocketWireFrame.framesAfterUpgrade(in: direction.stream).map { frame in
                    let preview = frame.payload.isEmpty ? "" : " \"" + ByteEscaper.escape(frame.payload.prefix(40)) + "\""
                    return (frame.range, frame.payload.count, "WebSocket " + frame.summary + preview)
                }
                : HTTP2Frame.frames(inCaptured: direction.stream).map { ($0.range, $0.frame.payload.count, "HTTP/2 " + $0.frame.summary) }
            for frame in frames {
                guard let carrier = direction.carriers(of: (frame.range.upperBound - 1)..<frame.range.upperBound).last?.segment else { continue }
                events.append(WireEvent(offset: offset(ofCaptured: carrier.timestamp), connection: connection.label, fromProbe: fromProbe,
                                        flags: webSocket ? "WebSocket" : "HTTP/2", length: frame.payload, preview: "", unit: frame.name))
            }
        }
    }

    private func keepRecords(of trace: ConnectionTrace, _ tls: TLSSession, _ label: String) {
        let probeIsClient = tls.role == .client
        let client = probeIsClient ? trace.fromProbe : trace.fromPeer
        let server = probeIsClient ? trace.fromPeer : trace.fromProbe
        let conversation = TLSConversation(client: client.stream, server: server.stream, keys: TLSKeyMaterial(lines: keyLog.all))
        for (records, tcp, fromProbe) in [(conversation.clientRecords, client, probeIsClient), (conversation.serverRecords, server, !probeIsClient)] {
            for record in records {
                let last = (record.streamRange.upperBound - 1)..<record.streamRange.upperBound
                guard let carrier = tcp.carriers(of: last).last?.segment else { continue }
                events.append(WireEvent(offset: offset(ofCaptured: carrier.timestamp), connection: label, fromProbe: fromProbe, flags: "TLS",
                                        length: record.streamRange.count - 5, preview: "", unit: "TLS " + TLSRecordRows.describe(record, 40)))
            }
        }
    }
}
