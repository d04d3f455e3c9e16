import NIOCore
import ProbeResults
import ProbeScript

/// The failures executors of every layer build.
extension StepFailure {
    /// A bind or listen on `address` that failed: an environment error in the system's words
    /// ("Address already in use", not NIO's rendering of the call), with what holds the port.
    static func cannotListen(on address: Address, _ error: Error, _ statement: Statement) -> StepFailure {
        StepFailure(statement, CommonFailure.cannotListen(on: address, error))
    }

    /// A failure of `statement` for `reason`, on `connection`, after waiting `waited`.
    init(_ statement: Statement, _ reason: some FailureReason, _ connection: (any ExpectSource)? = nil, waited: Duration? = nil) {
        self.init(at: statement.location, step: statement.text, reason: reason, connection: connection?.label, waited: waited)
    }


    /// This failure with the last bytes the connection (or proxy direction) received.
    func withRecentBytes(of connection: any ExpectSource) async -> StepFailure {
        var failure = self
        let recent = await connection.recentBytes()
        failure.recentBytes = recent.bytes
        failure.totalReceived = recent.total
        return failure
    }
}
