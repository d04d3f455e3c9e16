import ProbeResults
import ProbeScript

/// The steps that end or pause a connection: `close`, `shutdown write`, `abort`, `pause
/// reading` and `resume reading`.
extension ScenarioExecution {
    func control(_ connection: ProbeConnection, _ statement: Statement) async throws {
        switch statement.kind {
        case .close:
            try await judgeUnread(connection, statement)
            try? await connection.close(at: statement.location).get()
            record(statement, "\(connection.label): closed (FIN)")
        case .shutdownWrite:
            do { try await connection.shutdownWrite() } catch { throw StepFailure(statement, ConnectionFailure.shutdownFailed("\(error)"), connection) }
            record(statement, "\(connection.label): shut down writing (FIN), still reading")
        case .abort:
            try await judgeUnread(connection, statement)
            do { try await connection.abort(at: statement.location) } catch { throw StepFailure(statement, ConnectionFailure.abortFailed("\(error)"), connection) }
            record(statement, "\(connection.label): aborted (RST)")
        case .pauseReading, .resumeReading:
            let pause = statement.kind == .pauseReading
            try await connection.setPaused(pause)
            record(statement, "\(connection.label): \(pause ? "paused" : "resumed") reading")
        default:
            preconditionFailure("not a step that ends or pauses a connection: \(statement.text)")
        }
    }
}
