import NIOCore
import ProbeScript

/// How a step that waits tells that it ended: nil when it succeeded, else why it failed.
typealias StepDone = @Sendable (Error?) -> Void

/// The steps a scenario or a copy of a `parallel` block starts on the run's event loop (see `StepMachine`).
extension ScenarioExecution {
    /// Starts `statement`, except `repeat`, which the machine runs: false when it is done at once,
    /// true when it calls `done` once it ends (possibly before this returns). Connects without TLS
    /// or WebSocket, sends, expects and sleeps wait with no task; any other step runs as a
    /// task while it lasts. A write and an expect complete through callbacks, with no future of
    /// their own (bench/HISTORY.md 1). The dispatch is synchronous: an async switch over every kind
    /// of statement keeps a frame slot for each case's payload, and that frame stays allocated
    /// while the step waits.
    func stepOnLoop(_ statement: Statement, done: @escaping StepDone) throws -> Bool {
        /// Runs `work` as a task on the run's loop, and tells `done` its end.
        func task(_ work: @escaping @Sendable () async throws -> Void) -> Bool {
            onTask(work).tell(done)
            return true
        }
        switch statement.kind {
        case .title, .tags, .include:
            return false
        case .set, .variable, .use, .assertParallel:
            try runAtOnce(statement)
            return false
        case .connect(let step):
            return try startConnect(step, statement, done: done)
        case .send(let step):
            return try startSend(step, statement, done: done)
        case .expect(let expectation, let within):
            try expect(expectation, within: within, statement, done: done)
        case .sleep(let duration):
            try startSleep(duration, statement, done: done)
        case .close, .shutdownWrite, .abort, .pauseReading, .resumeReading:
            let connection = try target(statement)
            return task { try await self.control(connection, statement) }
        case .readSlowly(let read):
            return task { try await self.readSlowly(read, statement) }
        case .listen(let name, let address, let tls):
            return task { try await self.listen(name, address, tls: tls, statement) }
        case .accept(let name, let listener, let within, let expectTLSFailure, let speaking):
            return task { try await self.accept(name, on: listener, within: within, expectTLSFailure: expectTLSFailure, speaking: speaking, statement) }
        case .parallel(let count, let body):
            return task { try await self.parallel(count, body, statement) }
        case .expectProxied(let direction, let expectation, let within):
            return task { try await self.expect(expectation, within: within, watching: direction, statement) }
        case .repeatBlock, .nonStrict:
            preconditionFailure("a StepMachine runs the blocks")
        case .skipUnlessDefined(let reason, let name, _):
            guard let value = lookup(name) else { throw ScenarioSkipped(reason: reason.renderString(lookup) + " (\(name) has no value)") }
            record(statement, "\(name) = \(value): not skipped")
            return false
        // The families, one door each.
        case .on:
            try rules.run(statement)
            return false
        case .spawn, .kill, .expectExit, .expectOutput, .input:
            if case .spawn = statement.kind { run.heldPorts.releaseAll() } // it may bind a port free-port picked
            return task { try await self.subjects.run(statement) }
        case .proxy, .proxyFault:
            if case .proxy = statement.kind { run.heldPorts.releaseAll() }
            return task { try await self.proxies.run(statement) }
        case .startTLS, .assertTLS:
            return task { try await self.tlsSteps.run(statement) }
        case .network, .networkFault:
            return task { try await self.networks.run(statement) }
        case .assertWire:
            return task { try await self.wireChecks.run(statement) }
        }
        return true
    }

    /// The steps that are done as they start: they set, choose or judge what is already there.
    private func runAtOnce(_ statement: Statement) throws {
        switch statement.kind {
        case .set(let setting): try apply(setting, statement)
        case .variable(let name, let value): try define(name, value, statement)
        case .use(let name): guard table.use(name.text) else { throw table.unknownConnection(statement, named: name.text) }
        case .assertParallel(let assertion): try judge(assertion, statement)
        default: preconditionFailure("not a step done at once: \(statement.text)")
        }
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
