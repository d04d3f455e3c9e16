/// What `send text|binary|ping|pong|close` puts on a WebSocket connection: one frame (a
/// client's masked, a server's not).
public enum WebSocketSend: Sendable, Hashable {
    case text(Template)
    case binary(Template)
    case ping(Template?)
    case pong(Template?)
    /// `send close [CODE ["reason"]]`.
    case close(code: Argument<Int>?, reason: Template?)

    public var templates: [Template] {
        switch self {
        case .text(let data), .binary(let data): return [data]
        case .ping(let data), .pong(let data): return data.map { [$0] } ?? []
        case .close(let code, let reason): return code.templates + (reason.map { [$0] } ?? [])
        }
    }
}
