import NIOCore
import ProbeScript

/// How a step that waits tells that it ended: nil when it succeeded, else why it failed.
typealias StepDone = @Sendable (Error?) -> Void

/// The steps a scenario or a copy of a `parallel` block starts on the run's event loop (see `StepMachine`).
extension ScenarioExecution {
    /// Starts `statement`, except `repeat`, which the machine runs: false when it is done at once,
    /// true when it calls `done` once it ends (possibly before this returns). Connects without TLS
    /// or WebSocket, single writes, expects and sleeps wait with no task; any other step runs as a
    /// task while it lasts. A write and an expect complete through callbacks, with no future of
    /// their own (BENCHMARKS.md 1).
    func stepOnLoop(_ statement: Statement, done: @escaping StepDone) throws -> Bool {
        switch statement.kind {
        case .connect(let step) where step.tls == nil && step.webSocket == nil && options.defaultTLS?.client == nil:
            open(try prepareConnect(step, statement), step, statement).tell(done)
        case .send(let step):
            let prepared = try prepareSend(step, statement)
            guard let bytes = prepared.singleWrite else {
                onTask { try await self.send(prepared) }.tell(done)
                return true
            }
            write(ByteBuffer(bytes: bytes), after: 0, prepared) { problem in
                if problem == nil { self.recordSend(prepared, head: bytes, writes: []) }
                if let cut = problem as? SendCutOff {
                    self.noteCutOff(cut, prepared)
                    return done(nil)
                }
                done(problem)
            }
        case .expect(let expectation, let within):
            try expect(expectation, within: within, statement, done: done)
        case .sleep(let duration):
            // A sleeping copy holds its timer: the statement goes into it only when the deadline cuts the sleep short.
            let (wait, byDeadline) = limit(try resolve(duration, "a duration", Quantity.duration))
            let timer = byDeadline ? group.next().scheduleTask(in: wait.timeAmount) { throw self.sleepCutShort(statement) }
                                   : group.next().scheduleTask(in: wait.timeAmount) {}
            timer.futureResult.tell(done)
        default:
            guard let work = try step(for: statement) else { return false }
            onTask(work).tell(done)
        }
        return true
    }

    /// Awaits a step that tells its end through `StepDone`, from a task.
    func awaitStep(_ start: (@escaping StepDone) throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            do {
                try start { problem in
                    if let problem { continuation.resume(throwing: problem) } else { continuation.resume() }
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}

extension EventLoopFuture {
    /// Tells `done` this future's end: nil on success, else its error.
    func tell(_ done: @escaping StepDone) {
        whenComplete { done($0.failure) }
    }
}
