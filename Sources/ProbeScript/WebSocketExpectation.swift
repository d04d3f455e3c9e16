/// What `expect text|binary|ping|pong|close CODE` waits for on a WebSocket connection: the next
/// message or control frame (pings the probe answers itself, with auto-pong on, are skipped).
public enum WebSocketExpectation: Sendable, Hashable {
    /// A text message, matched as a line is.
    case text(LineMatch)
    /// A binary message: these bytes, any, or (`bytes N`) of this length.
    case binary(Template?)
    case binaryLength(Argument<Int>)
    /// A ping or pong, with this payload when given.
    case ping(Template?)
    case pong(Template?)
    /// A close frame with this code (nil: any), and a reason matching the regex when given.
    case close(code: Argument<Int>?, reason: RegexLiteral?)

    public var templates: [Template] {
        switch self {
        case .text(let match): return match.templates
        case .binary(let data), .ping(let data), .pong(let data): return data.map { [$0] } ?? []
        case .binaryLength(let count): return count.templates
        case .close(let code, let reason): return code.templates + (reason.map { [$0.template] } ?? [])
        }
    }
}
