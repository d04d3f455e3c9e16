/// The reference protocol's server side (docs/reference-protocol.md) as a plain state machine:
/// a line in, what to send and to whom out. `iam:NAME` joins, `msg:TEXT` broadcasts, `ping`
/// answers `pong`, `quit` answers `bye` and closes; `pong` answers the server's own ping (its
/// heartbeat) and is answered by nothing.
public struct ChatProtocol: Sendable {
    public enum Action: Equatable, Sendable {
        case reply(String)
        case broadcast(String)
        case replyAndClose(String)
    }

    /// The name the connection joined with.
    public private(set) var name: String?

    public init() {}

    /// What to do about one line received.
    public mutating func handle(_ line: String) -> [Action] {
        if line.hasPrefix("iam:") {
            let requested = String(line.dropFirst(4))
            guard !requested.isEmpty else { return [.reply("ERR empty name")] }
            name = requested
            return [.broadcast("\(requested) has joined")]
        }
        if line.hasPrefix("msg:") {
            guard let name else { return [.reply("ERR say iam:NAME first")] }
            return [.broadcast("\(name): \(line.dropFirst(4))")]
        }
        switch line {
        case "ping": return [.reply("pong")]
        case "pong": return []
        case "quit": return [.replyAndClose("bye")]
        default: return [.reply("ERR unknown command")]
        }
    }
}
