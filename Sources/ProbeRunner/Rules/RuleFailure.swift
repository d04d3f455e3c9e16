import ProbeResults

/// Why an `on` rule or heartbeat could not be set.
enum RuleFailure: FailureReason, Equatable {
    /// A rule on a WebSocket connection, which answers pings by `set websocket auto-pong`.
    case onWebSocket(connection: String)
    /// `every 0s`.
    case heartbeatZero

    var description: String {
        switch self {
        case .onWebSocket(let connection):
            "\(connection) is a WebSocket connection: it answers pings by set websocket auto-pong, and on rules read lines and messages"
        case .heartbeatZero: "a heartbeat's interval must be more than 0"
        }
    }
}
