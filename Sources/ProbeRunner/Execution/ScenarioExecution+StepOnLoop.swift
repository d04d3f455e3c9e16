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
    /// their own (bench/HISTORY.md 1). The dispatch is synchronous: an async switch over every kind
    /// of statement keeps a frame slot for each case's payload, and that frame stays allocated
    /// while the step waits.
    func stepOnLoop(_ statement: Statement, done: @escaping StepDone) throws -> Bool {
        /// Runs `work` as a task on the run's loop, and tells `done` its end.
        func task(_ work: @escaping () async throws -> Void) -> Bool {
            onTask(work).tell(done)
            return true
        }
        switch statement.kind {
        case .title, .tags, .include:
            return false
        case .set(let setting):
            try apply(setting, statement)
            return false
        case .variable(let name, let value):
            try define(name, value, statement)
            return false
        case .use(let name):
            guard table.use(name.text) else { throw unknownConnection(statement, named: name.text) }
            return false
        case .connect(let written):
            let step = try webSocketURL(written, statement)
            guard step.tls == nil, step.webSocket == nil, options.defaultTLS?.client == nil else {
                return task { try await self.connect(step, statement) }
            }
            open(try prepareConnect(step, statement), step, statement).tell(done)
        case .send(let step):
            guard let prepared = try prepareSend(step, statement) else { return false }
            guard let bytes = prepared.singleWrite else { return task { try await self.send(prepared) } }
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
        case .on(let rule):
            try ruleSteps.on(rule, statement)
            return false
        case .sleep(let duration):
            // A sleeping copy holds its timer: the statement goes into it only when the deadline cuts the sleep short.
            let (wait, byDeadline) = limit(try resolve(duration, "a duration", Quantity.duration))
            let timer = byDeadline ? loop.scheduleTask(in: wait.timeAmount) { throw self.sleepCutShort(statement) }
                                   : loop.scheduleTask(in: wait.timeAmount) {}
            timer.futureResult.tell(done)
        case .close:
            let connection = try target(statement)
            return task {
                try await self.judgeUnread(connection, statement)
                try? await connection.close(at: statement.location).get()
                self.record(statement, "\(connection.label): closed (FIN)")
            }
        case .shutdownWrite:
            let connection = try target(statement)
            return task {
                do { try await connection.shutdownWrite() } catch { throw self.failure(statement, "shutdown write failed: \(error)", connection) }
                self.record(statement, "\(connection.label): shut down writing (FIN), still reading")
            }
        case .abort:
            let connection = try target(statement)
            return task {
                try await self.judgeUnread(connection, statement)
                do { try await connection.abort(at: statement.location) } catch { throw self.failure(statement, "abort failed: \(error)", connection) }
                self.record(statement, "\(connection.label): aborted (RST)")
            }
        case .pauseReading, .resumeReading:
            let connection = try target(statement)
            let pause = statement.kind == .pauseReading
            return task {
                try await connection.setPaused(pause)
                self.record(statement, "\(connection.label): \(pause ? "paused" : "resumed") reading")
            }
        case .repeatBlock, .nonStrict:
            preconditionFailure("a StepMachine runs the blocks")
        case .readSlowly(let read):
            return task { try await self.readSlowly(read, statement) }
        case .assertWire(let assertion):
            return task { try await WireSteps(host: self).assertWire(assertion, statement) }
        case .listen(let name, let address, let tls):
            return task { try await self.listen(name, address, tls: tls, statement) }
        case .accept(let name, let listener, let within, let expectTLSFailure, let webSocket):
            return task { try await self.accept(name, on: listener, within: within, expectTLSFailure: expectTLSFailure, webSocket: webSocket, statement) }
        case .startTLS(let options, let expectFailure):
            return task { try await self.tlsSteps.startTLS(options, expectFailure: expectFailure, statement) }
        case .assertTLS(let assertion):
            try tlsSteps.assertTLS(assertion, statement)
            return false
        case .spawn(let step):
            run.heldPorts.releaseAll() // the subject may bind a port free-port picked
            return task { try await self.subjects.spawn(step, statement) }
        case .kill(let name, let signal):
            return task { try await self.subjects.kill(name, signal: signal, statement) }
        case .expectExit(let expectation):
            return task { try await self.subjects.expectExit(expectation, statement) }
        case .expectOutput(let expectation):
            return task { try await self.subjects.expectOutput(expectation, statement) }
        case .input(let input):
            return task { try await self.subjects.input(input, statement) }
        case .parallel(let count, let body):
            return task { try await self.parallel(count, body, statement) }
        case .proxy(let name, let front, let back):
            run.heldPorts.releaseAll()
            return task { try await self.proxies.open(name, front: front, back: back, statement) }
        case .proxyFault(let fault):
            return task { try await self.proxies.fault(fault, statement) }
        case .network(let name, let faults):
            guard copyIndex == nil else { throw failure(statement, "a network is made once a run: make it before the parallel block") }
            return task { try await self.run.networks.open(name, faults, host: self, statement) }
        case .networkFault(let fault):
            try run.networks.fault(fault, host: self, statement)
            return false
        case .expectProxied(let direction, let expectation, let within):
            return task {
                let watch = try await self.proxies.watch(direction, within: within, statement)
                try await self.expect(expectation, within: within, watching: watch, statement)
            }
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
