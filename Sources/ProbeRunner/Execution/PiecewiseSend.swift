import NIOCore

/// A send of several writes, or of one that must wait: pieces (`in chunks of`, `split at`),
/// pacing (`every`), a rate (`at`), writes larger than `ScenarioExecution.largestWrite`,
/// `until closed`, and writes held while the capture catches up (see `CaptureHold`). It runs on
/// the run's loop with no task: each write starts once the one before it has ended and its
/// time has come, so a dripping copy holds this object and one timer, not a task and its
/// frames (bench/HISTORY.md 2). A send the peer's close cuts off is noted, not failed.
final class PiecewiseSend {
    /// What the send does next, once it may.
    private enum Next {
        /// Starts a piece: waits for the bytes a rate has earned.
        case piece
        /// `until closed`: the peer's close cuts the send off; its time running out fails it.
        case peerCheck
        /// Writes the piece's next block, or waits for the capture first.
        case block
        /// Writes the block once the capture has caught up or `limit` passed since `began`.
        case capture(CaptureHold, began: RunClock.Instant, limit: Duration)
        /// Ends a piece: waits for the next one's time.
        case pause
        /// Every byte is sent: logs the send.
        case sent
        /// `until closed`: waits for the peer's close, looking every 5 ms.
        case peerClose
    }

    private let execution: ScenarioExecution
    private let plan: SendPlan
    private let done: StepDone
    private let pieces: [Range<Int>]
    private let started: RunClock.Instant
    /// `until closed`: the peer must have closed by then.
    private let closeBy: RunClock.Instant?
    private var next = Next.piece
    /// The piece being written, and the bytes written so far: the offset of the next.
    private var piece = 0
    private var sent = 0
    /// How long the writes waited for the capture.
    private var held = Duration.zero
    /// The first bytes sent, and each piece's size and time, for the log.
    private var head: [UInt8] = []
    private var writes: [String] = []
    /// A write the socket takes at once ends inside the call that starts it: the send then goes
    /// on from `advance`'s loop, not from within, so that many pieces do not nest a call each,
    /// and yields the loop after `StepMachine.stepsInOneTurn` steps, as a step machine does.
    private var advancing = false
    private var goOn = false
    /// Set when the scenario's deadline ends the wait under way.
    private var waitEndsByDeadline = false

    init(_ plan: SendPlan, of execution: ScenarioExecution, done: @escaping StepDone) {
        self.execution = execution
        self.plan = plan
        self.done = done
        pieces = plan.pieces
        let now = execution.clock.now
        started = now
        closeBy = plan.closeWithin.map { now + $0 }
    }

    /// Starts the send; `done` is told its end on the run's loop.
    func start() { advance() }

    /// Takes the send's next steps until one must wait: for a write to end, for a time to
    /// come, or for the capture.
    private func advance() {
        advancing = true
        var steps = 0
        repeat {
            goOn = false
            step()
            steps += 1
        } while goOn && steps < StepMachine.stepsInOneTurn
        advancing = false
        if goOn { execution.loop.assumeIsolated().execute { self.advance() } }
    }

    /// Goes on with the next step at once: from `advance`'s loop when inside it.
    private func proceed() {
        if advancing { goOn = true } else { advance() }
    }

    private func step() {
        switch next {
        case .piece:
            next = .peerCheck
            guard let rate = plan.rate else { return proceed() }
            // Token bucket: the bytes already sent must have been "earned" at `rate` bytes/s.
            let earned = started + .nanoseconds(Int64(Double(sent) / Double(rate) * 1e9))
            wait(until: closeBy.map { min(earned, $0) } ?? earned)
        case .peerCheck:
            next = .block
            if let closeBy {
                if plan.connection.peerHasClosed { return cutOff(SendCutOff(sent: sent, why: peerEnd)) }
                if execution.clock.now >= closeBy { return done(execution.notClosed(plan, sent: sent)) }
            }
            proceed()
        case .block:
            guard sent < pieces[piece].upperBound else {
                next = .pause
                return proceed()
            }
            if let hold = execution.wire.hold, hold.mustHold {
                next = .capture(hold, began: execution.clock.now, limit: execution.limit(execution.settings.timeout).wait)
                return wait(for: CaptureHold.recheck)
            }
            writeBlock()
        case .capture(let hold, let began, let limit):
            let waited = execution.clock.now - began
            if !hold.mayResume && waited < limit { return wait(for: CaptureHold.recheck) }
            hold.heldSending(for: waited)
            held += waited
            writeBlock()
        case .pause:
            let written = execution.clock.now
            if pieces.count > 1 { writes.append("\(pieces[piece].count)B@\(execution.format(written - started))") }
            piece += 1
            guard piece < pieces.count else {
                next = .sent
                return proceed()
            }
            next = .piece // `sent` is its start: the pieces are contiguous
            guard let interval = plan.interval else { return proceed() } // `every 0`: due at once
            // Pace against the planned times, so the waits' own overhead does not accumulate;
            // but a write that finished late still gets 90% of the gap after it, or the next
            // piece could leave with the last one and the fault not be made.
            let due = max(started + interval * piece, written + interval * 0.9)
            wait(until: closeBy.map { min(due, $0) } ?? due)
        case .sent:
            execution.recordSend(plan, head: head, writes: writes, held: held)
            guard closeBy != nil else { return done(nil) }
            next = .peerClose
            proceed()
        case .peerClose:
            // The handler notes the close as it reads it.
            if plan.connection.peerHasClosed {
                execution.record(plan.statement, "\(plan.connection.label): the peer closed the connection (\(peerEnd)) after the send, as `until closed` waits for")
                return done(nil)
            }
            let now = execution.clock.now
            guard let closeBy, now < closeBy else { return done(execution.notClosed(plan, sent: plan.payload.count)) }
            wait(until: min(now + .milliseconds(5), closeBy))
        }
    }

    /// Writes the piece's next block, at most `largestWrite` bytes.
    private func writeBlock() {
        next = .block
        let range = sent..<min(pieces[piece].upperBound, sent + ScenarioExecution.largestWrite)
        let bytes: ByteBuffer
        do {
            bytes = try execution.take(plan.payload, range, plan.statement)
        } catch {
            return done(error)
        }
        if head.count < 80 { head += bytes.readableBytesView.prefix(80 - head.count) }
        let send = NIOLoopBound(self, eventLoop: execution.loop)
        execution.write(bytes, after: sent, plan) { problem in send.value.wrote(range, problem) }
    }

    /// A block's write ended: the send goes on, or the peer's close cut it off, or it failed.
    private func wrote(_ range: Range<Int>, _ problem: Error?) {
        guard let problem else {
            sent = range.upperBound
            return proceed()
        }
        guard let cut = problem as? SendCutOff else { return done(problem) }
        cutOff(cut)
    }

    /// The peer's close cut the send off: noted, and the step passes.
    private func cutOff(_ cut: SendCutOff) {
        execution.noteCutOff(cut, plan)
        done(nil)
    }

    /// Goes on at `instant`, if it is still ahead.
    private func wait(until instant: RunClock.Instant) {
        let now = execution.clock.now
        guard instant > now else { return proceed() }
        wait(for: instant - now)
    }

    /// Goes on after `duration` (as `WaitEnd` rounds it); fails, as a sleep does, when the
    /// scenario's deadline comes first.
    private func wait(for duration: Duration) {
        let wait: Duration
        (wait, waitEndsByDeadline) = execution.limit(duration)
        do {
            try execution.loop.assumeIsolated().scheduleCallback(at: WaitEnd.deadline(after: wait), handler: self)
        } catch {
            done(error)
        }
    }

    /// How the peer ended the connection, in words: "FIN", "RST".
    private var peerEnd: String {
        switch plan.connection.handler.end {
        case .reset?: return "RST"
        case .truncated?: return "FIN without close_notify"
        case .error(let message)?: return message
        default: return "FIN"
        }
    }
}

/// A wait of the send ends on the run's loop.
extension PiecewiseSend: NIOScheduledCallbackHandler {
    func handleScheduledCallback(eventLoop: some EventLoop) {
        if waitEndsByDeadline { return done(execution.sleepCutShort(plan.statement)) }
        advance()
    }

    func didCancelScheduledCallback(eventLoop: some EventLoop) {
        done(EventLoopError.shutdown)
    }
}
