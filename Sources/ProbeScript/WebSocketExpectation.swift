/// What `expect text|binary|ping|pong|close CODE` waits for on a WebSocket connection: the next
/// message or control frame (pings the probe answers itself, with auto-pong on, are skipped).
package enum WebSocketExpectation: Sendable, Hashable {
    /// A text message, matched as a line is.
    case text(LineMatch)
    /// A binary message: these bytes, any, or (`bytes N`) of this length.
    case binary(Template?)
    case binaryLength(Argument<Int>)
    /// A ping or pong, with this payload when given.
    case ping(Template?)
    case pong(Template?)
    /// A close frame with one of these codes (none given: any), and a reason matching the regex
    /// when given; with `orNone`, a close frame without a code, or the TCP connection's end
    /// without a close frame, does too (`expect close 1002 or 1007 or none`).
    case close(codes: [Argument<Int>], orNone: Bool, reason: RegexLiteral?)

    package var templates: [Template] {
        switch self {
        case .text(let match): return match.templates
        case .binary(let data), .ping(let data), .pong(let data): return data.map { [$0] } ?? []
        case .binaryLength(let count): return count.templates
        case .close(let codes, _, let reason): return codes.flatMap(\.templates) + (reason.map { [$0.template] } ?? [])
        }
    }
}
