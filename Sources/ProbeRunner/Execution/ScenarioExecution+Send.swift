import NIOCore
import ProbeFraming
import ProbeResults
import ProbeScript

/// The `send` executor, with its fault modifiers: chunks, split offsets, pacing and a bandwidth
/// limit; a send cut off by the peer's close; `until closed` on sends and on `repeat` blocks;
/// writes held back while the run's capture catches up (see `CaptureHold`).
extension ScenarioExecution {
    /// The most one write hands the socket: larger pieces go out as several writes, so a large
    /// send holds one write's bytes at a time and its timeout measures progress, not the whole.
    static let largestWrite = 1024 * 1024

    /// Starts `send`: false when it is skipped, else true, and `done` is told its end. Neither
    /// a single write nor a send of several writes (pieces, pacing, `until closed`, a write the
    /// capture must wait for: `PiecewiseSend`) runs as a task.
    func startSend(_ step: SendStep, _ statement: Statement, done: @escaping StepDone) throws -> Bool {
        guard let plan = try planSend(step, statement) else { return false }
        guard let bytes = plan.singleWrite, wire.hold?.mustHold != true else {
            PiecewiseSend(plan, of: self, done: done).start()
            return true
        }
        write(run.bufferForWrite(bytes), after: 0, plan, wholeSend: true, done: done)
        return true
    }

    /// Works out a send's bytes and writes; nothing is written yet. Nil when the send is
    /// skipped (`set cut-off skip` on a connection whose peer closed it during an earlier send).
    func planSend(_ step: SendStep, _ statement: Statement) throws -> SendPlan? {
        let connection = try target(statement)
        if connection.outputClosed {
            throw StepFailure(statement, ConnectionFailure.writeShutDown(connection: connection.label), connection)
        }
        let closed = connection.cutOffSend.map { "the peer closed it during the send at \($0)" }
            ?? (connection.webSocket?.handshakeClosed == true ? "its WebSocket close handshake is done" : nil)
        if let closed {
            guard settings.cutOff == .skip else { throw StepFailure(statement, ConnectionFailure.closed(connection: connection.label, how: closed), connection) }
            record(statement, "\(connection.label): not sent: \(connection.label) is closed: \(closed) (set cut-off skip)")
            return nil
        }
        let payload = try payload(step, statement)
        guard !step.isPlain else { return SendPlan(statement: statement, connection: connection, data: step.data, payload: payload) }
        let closeWithin = try step.untilClosed.map { untilClosed in
            try untilClosed.within.map { try resolve($0, "a duration", Quantity.duration) } ?? settings.timeout
        }
        return SendPlan(statement: statement, connection: connection, data: step.data, payload: payload,
                            cuts: try plan(payload, step, statement),
                            interval: try interval(step),
                            rate: try step.rate.map { try resolve($0, "a rate", Quantity.rate) },
                            closeWithin: closeWithin)
    }

    /// The pause between a send's writes: `every D` (between chunks, split pieces or frames); for `split at` and `split sweep`, the
    /// default gap; none for `in chunks of` (a large transfer in small chunks goes at full speed).
    private func interval(_ step: SendStep) throws -> Duration? {
        if let every = step.interval { return try resolve(every, "a duration", Quantity.duration) }
        return step.splitSweep || !step.splitOffsets.isEmpty ? Duration.defaultSplitGap : nil
    }

    /// `until closed`: the peer did not close in time.
    func notClosed(_ send: SendPlan, sent: Int) -> StepFailure {
        StepFailure(send.statement, ConnectionFailure.peerDidNotClose(within: send.closeWithin ?? settings.timeout, sent: sent, total: send.payload.count),
                    send.connection, waited: send.closeWithin)
    }

    /// A send the peer's close cut off: noted in the log, and kept on the connection, whose
    /// next send fails naming it. The step itself passes (a send `until closed` wanted it).
    func noteCutOff(_ cut: SendCutOff, _ send: SendPlan) {
        let total = send.payload.count
        let place = "\(send.statement.location.fileAndLine) (after \(cut.sent) of \(total) bytes)"
        if send.closeWithin == nil { send.connection.cutOffSend = place }
        record(send.statement, "\(send.connection.label): the peer closed the connection (\(cut.why)) after \(cut.sent) of \(total) bytes"
               + (send.closeWithin == nil ? "; the send was cut off" : ", as `until closed` waits for"))
    }

    /// One write of a send, failing when the peer does not take it within the step's timeout;
    /// `done` is told its end on the connection's loop, and a failure is reported from a task;
    /// a write that goes through has no task wait for it. A send of one write (`wholeSend`) is
    /// logged, or noted cut off, as the write ends.
    func write(_ bytes: ByteBuffer, after sent: Int, _ send: consuming SendPlan, wholeSend: Bool = false, done: @escaping StepDone) {
        let (wait, byDeadline, _) = limit(settings.timeout, at: clock.now)
        let connection = send.connection
        let end = StepWrite(execution: self, plan: send, sent: sent, wait: wait, byDeadline: byDeadline, wholeSend: wholeSend, done: done)
        connection.send(bytes, timeout: wait, to: end)
    }

    /// Why a write failed: the peer's close (a `SendCutOff`, which the send notes), an error,
    /// or the peer not taking it in time.
    @inline(never)
    func writeFailure(_ problem: Error?, _ wait: Duration, _ byDeadline: Bool, after sent: Int, _ send: SendPlan) async -> Error {
        let (statement, connection, total) = (send.statement, send.connection, send.payload.count)
        let failure: StepFailure
        if let problem {
            let end = try? await connection.onLoop({ $0.end })
            if let cause = SendCutOff.peerClose(problem, end: end) { return SendCutOff(sent: sent, why: cause) }
            // A channel closes when the peer resets it; say so rather than "I/O on closed channel".
            var why = "\(problem)"
            if case ChannelError.ioOnClosedChannel = problem, let end { why = end.description }
            failure = StepFailure(statement, ConnectionFailure.sendFailed(sent: sent, total: total, why: why), connection)
        } else {
            failure = StepFailure(statement, ConnectionFailure.peerNotReading(byDeadline: byDeadline, wait: byDeadline ? settings.deadline : wait, sent: sent, total: total),
                                  connection, waited: wait)
        }
        return await failure.withRecentBytes(of: connection)
    }

    /// Logs a finished send of several writes, or of one the capture held, and keeps its cuts
    /// to check on the wire.
    @inline(never)
    func recordSend(_ send: SendPlan, head: [UInt8], writes: [String], held: Duration) {
        if !send.cuts.isEmpty { wire.noteSplit(send.statement, send.connection, cuts: send.cuts.map { send.streamStart + $0 }) }
        guard runRecord.keepsLog else { return } // neither copies nor a run that wants none keep a log
        var notes = self.notes(on: send)
        if held > .zero { notes += "; held \(format(held)) for the capture to catch up" }
        record(send.statement) { [notes] in ScenarioExecution.sentMessage(send, head: head, writes: writes, notes: notes) }
    }

    /// Logs a send of one write as the write ends. With no notes, the usual, the entry keeps the
    /// write's object alone, which holds the plan: a closure that holds one object needs no
    /// box of its own, once a round trip.
    @inline(never)
    func recordSend(_ write: TimedWrite<StepWrite>) {
        guard runRecord.keepsLog else { return } // neither copies nor a run that wants none keep a log
        let send = write.end.plan
        let notes = self.notes(on: send)
        guard notes.isEmpty else {
            return record(send.statement) { [notes] in ScenarioExecution.sentMessage(send, head: send.singleWrite ?? [], notes: notes) }
        }
        record(send.statement) { [write] in ScenarioExecution.sentMessage(write.end.plan, head: write.end.plan.singleWrite ?? []) }
    }

    /// What a send's log entry says beside its bytes (nothing for a plain send): made as the
    /// send ends, for the state it reads moves on; the preview of the bytes is made only if the
    /// log keeps the entry.
    private func notes(on send: SendPlan) -> String {
        var notes = ""
        if let before = send.recordsBefore, let tls = send.connection.tls { notes += tls.noteSend(recordsBefore: before) }
        if send.summary == .message, case .length(let header) = settings.messageFraming, case .bytes(let bytes) = send.payload,
           let summary = header.summary(ofMessage: bytes) {
            notes += ", one message: " + summary
        }
        if send.summary == .webSocketFrames, case .bytes(let bytes) = send.payload, let frames = WebSocketWireFrame.summary(of: bytes) {
            notes += ", " + frames
        }
        if send.summary == .http2Frames, case .bytes(let bytes) = send.payload, let frames = HTTP2Frame.summary(ofSent: bytes) {
            notes += ", " + frames
        }
        if case .random = send.payload { notes += " (seed \(seed))" }
        return notes
    }

    /// A finished send's log message: its bytes, the first 80 shown, and its writes.
    private static func sentMessage(_ send: SendPlan, head: [UInt8], writes: [String] = [], notes: String = "") -> String {
        let total = send.payload.count
        var message = "\(send.connection.label): sent \(total.counted("byte")) " + ByteEscaper.preview(head.prefix(80), limit: 80, total: total)
        if !writes.isEmpty {
            let shown = writes.count > 24 ? writes.prefix(12) + ["…"] + writes.suffix(4) : writes[...]
            message += " in \(send.cuts.count + 1) writes: " + shown.joined(separator: " ")
        }
        return message + notes
    }

    func payloadBytes(_ step: SendStep, _ statement: Statement) throws -> [UInt8] {
        guard case .bytes(let bytes) = try payload(step, statement) else {
            preconditionFailure("the parser gives a rule's send only a line, a message or bytes")
        }
        return bytes
    }

    /// What a send stands for; random bytes are made, and a large file read, as they are written.
    private func payload(_ step: SendStep, _ statement: Statement) throws -> SendPayload {
        switch step.data {
        case .bytes(let template):
            return .bytes(render(template))
        case .line(let template):
            return .bytes(settings.lineFraming.frame(render(template)))
        case .message(let template, let head):
            let message = render(template)
            guard case .length(let header) = settings.messageFraming else {
                if head != nil { throw StepFailure(statement, FramingFailure.headUnderLines) }
                return .bytes(settings.framing.frame(message))
            }
            let headBytes = try head.map { try headBytesChecked(render($0), header, statement) }
            do {
                return .bytes(try header.frame(message, head: headBytes))
            } catch {
                throw StepFailure(statement, FramingFailure.cannotFrame("\(error)"))
            }
        case .file(let template):
            let path = ScenarioLoader.resolve(template.renderString(lookup), from: statement.location.file)
            do {
                return try FileSlices.payload(path: path, streamingOver: Self.largestWrite)
            } catch {
                throw unreadable(error, statement)
            }
        case .webSocket(let frame):
            let framesOf = try step.framesOf.map { try resolve($0, "a size", Quantity.size) }
            if framesOf == 0 { throw StepFailure(statement, ConnectionFailure.frameOfZero) }
            return .bytes(try webSocketSteps.frame(frame, framesOf: framesOf, on: try target(statement), statement))
        case .http2(let send):
            return .bytes(try http2Steps.bytes(send, on: try target(statement), statement))
        case .random(let size):
            let count = try resolve(size, "a size", Quantity.size)
            noteSeed()
            return .random(count: count)
        }
    }

    /// A file to send that could not be read: the environment's fault, not the peer's.
    private func unreadable(_ error: Error, _ statement: Statement) -> StepFailure {
        StepFailure(statement, ConnectionFailure.cannotReadFile("\(error)"))
    }

    /// The payload's bytes in `range`; ranges are taken in order, which the random stream relies on.
    /// Random bytes are made, and a file's read, straight into the buffer that is written.
    func take(_ payload: SendPayload, _ range: Range<Int>, _ statement: Statement) throws -> ByteBuffer {
        switch payload {
        case .bytes(let bytes):
            return ByteBuffer(bytes: bytes[range])
        case .file(let file):
            do { return try file.bytes(in: range) } catch { throw unreadable(error, statement) }
        case .random:
            var buffer = ByteBuffer()
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: range.count) { space in
                random.fill(UnsafeMutableRawBufferPointer(rebasing: space.prefix(range.count)))
                return range.count
            }
            return buffer
        }
    }

    /// The first `split sweep` of a run is measured (discovery) or split at the run's offset;
    /// any later one is sent whole.
    private func sweepCuts(_ length: Int, _ statement: Statement) -> [Int] {
        switch sweep.cut(forMessageOf: length) {
        case .notFirst:
            record(statement, "only the first split sweep of a scenario is swept; this one is sent whole")
            return []
        case .whole:
            return []
        case .at(let offset):
            record(statement, "split sweep: this run splits the \(length)-byte message at offset \(offset)")
            return [offset]
        }
    }

    /// Where a send's bytes are cut between writes: nowhere (one write, with no array made), or
    /// where its modifiers ask (`in frames of N every D`: between WebSocket frames).
    private func plan(_ payload: SendPayload, _ step: SendStep, _ statement: Statement) throws -> [Int] {
        let count = payload.count
        var cuts: [Int] = []
        if let chunk = step.chunkSize {
            let size = try resolve(chunk, "a chunk size", Quantity.size)
            guard size > 0 else { throw StepFailure(statement, ConnectionFailure.chunkOfZero) }
            cuts = Array(stride(from: size, to: count, by: size))
        } else if !step.splitOffsets.isEmpty {
            cuts = try step.splitOffsets.map { try resolve($0, "an offset", Quantity.integer) }
            guard cuts == cuts.sorted(), Set(cuts).count == cuts.count else {
                throw StepFailure(statement, ConnectionFailure.splitNotIncreasing(cuts))
            }
            if let first = cuts.first, first < 1 { throw StepFailure(statement, ConnectionFailure.splitBelowOne(first)) }
            if let last = cuts.last, last >= count {
                throw StepFailure(statement, ConnectionFailure.splitOutside(offset: last, count: count))
            }
        } else if step.splitSweep {
            cuts = sweepCuts(count, statement)
        } else if step.framesOf != nil, step.interval != nil, case .bytes(let frames) = payload {
            cuts = WebSocketWireFrame.frames(in: frames).dropLast().map(\.range.upperBound)
        } else if let rate = step.rate {
            // Without explicit chunks, a paced send writes about twenty pieces a second.
            let perSecond = try resolve(rate, "a rate", Quantity.rate)
            let size = max(1, min(64 * 1024, perSecond / 20))
            cuts = Array(stride(from: size, to: count, by: size))
        }
        return cuts
    }

    // MARK: - until closed on a repeat block

    /// The connection a `repeat … until closed` watches: the one its first step on a named
    /// connection names, else the current one.
    private func watched(by block: Statement) -> ProbeConnection? {
        guard case .repeatBlock(_, let body, _) = block.kind else { return nil }
        return body.lazy.compactMap(\.connection).first.flatMap { table.connection(named: $0.text) } ?? table.current
    }

    /// Whether the peer of the connection `block` (a `repeat … until closed`) watches has closed
    /// it, or cut off one of its sends.
    func peerHasClosed(in block: Statement) -> Bool {
        guard let connection = watched(by: block) else { return false }
        return connection.peerHasClosed || connection.cutOffSend != nil
    }

    /// The peer closed, as `repeat … until closed` waited for: a send it cut off is what the
    /// block wanted, not a fault for the steps after it.
    func noteClosed(_ block: Statement, afterTurns turns: Int?) {
        guard let connection = watched(by: block) else { return }
        connection.cutOffSend = nil
        let when = turns.map { "during turn \($0) of the repeat" } ?? "after the repeat's last turn"
        record(block, "\(connection.label): the peer closed the connection \(when), as `until closed` waits for")
    }

    /// A `repeat … until closed` whose turns ran out: waits for the peer's close as long as the
    /// step timeout, looking every 5 ms, and fails without it.
    func waitForClose(in block: Statement) async throws {
        guard try await awaitClose(by: clock.now + settings.timeout, block, { peerHasClosed(in: block) }) else {
            let connection = watched(by: block)
            guard case .repeatBlock(let count, _, _) = block.kind else { return }
            throw StepFailure(block, ConnectionFailure.repeatDidNotClose(connection: connection?.label, turns: try repeatTimes(count), timeout: settings.timeout),
                              connection)
        }
        noteClosed(block, afterTurns: nil)
    }

    /// Waits until `closed` says the peer closed, looking every 5 ms (a handler notes the close
    /// as it reads it), up to `deadline`: false when it did not close by then.
    private func awaitClose(by deadline: RunClock.Instant, _ statement: Statement, _ closed: () -> Bool) async throws -> Bool {
        while !closed() {
            guard clock.now < deadline else { return false }
            try await sleep(until: min(clock.now + .milliseconds(5), deadline), statement)
        }
        return true
    }
}
