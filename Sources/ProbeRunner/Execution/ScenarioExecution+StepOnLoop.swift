import NIOCore
import ProbeScript

/// The steps a scenario or a copy of a `parallel` block starts on the run's event loop (see `StepMachine`).
extension ScenarioExecution {
    /// Starts `statement`, except `repeat`, which the machine runs: nil when it is done at once,
    /// else its completion on the run's loop. Connects without TLS or WebSocket, single writes,
    /// expects and sleeps wait with no task; any other step runs as a task while it lasts.
    func stepOnLoop(_ statement: Statement) throws -> EventLoopFuture<Void>? {
        switch statement.kind {
        case .connect(let step) where step.tls == nil && step.webSocket == nil && options.defaultTLS?.client == nil:
            return open(try prepareConnect(step, statement), step, statement).map { _ in }
        case .send(let step):
            let prepared = try prepareSend(step, statement)
            guard let bytes = prepared.singleWrite else { return onTask { try await self.send(prepared) } }
            return write(ByteBuffer(bytes: bytes), after: 0, prepared).map { self.recordSend(prepared, head: bytes, writes: []) }
        case .expect(let expectation, let within):
            return try expect(expectation, within: within, statement)
        case .sleep(let duration):
            // A sleeping copy holds its timer: the statement goes into it only when the deadline cuts the sleep short.
            let (wait, byDeadline) = limit(try resolve(duration, "a duration", Quantity.duration))
            guard byDeadline else { return group.next().scheduleTask(in: wait.timeAmount) {}.futureResult }
            return group.next().scheduleTask(in: wait.timeAmount) { throw self.sleepCutShort(statement) }.futureResult
        default:
            return try step(for: statement).map(onTask)
        }
    }
}
