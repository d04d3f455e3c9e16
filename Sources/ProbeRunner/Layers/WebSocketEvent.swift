import ProbeScript

/// What a WebSocket connection received, as `expect text|binary|ping|pong|close` read it: a
/// whole message (its fragments joined, unmasked) or a control frame.
enum WebSocketEvent: Equatable {
    case text([UInt8])
    case binary([UInt8])
    case ping([UInt8])
    case pong([UInt8])
    /// A close frame: its code, when it has one, and its reason.
    case close(code: Int?, reason: String)

    /// "text "hello"", "ping (4 bytes)", "close 1000 "bye"".
    var description: String {
        switch self {
        case .text(let bytes): return "text " + ByteEscaper.preview(bytes)
        case .binary(let bytes): return "binary " + ByteEscaper.preview(bytes)
        case .ping(let bytes): return "ping " + ByteEscaper.preview(bytes)
        case .pong(let bytes): return "pong " + ByteEscaper.preview(bytes)
        case .close(let code, let reason): return "close" + (code.map { " \($0)" } ?? " (no code)") + (reason.isEmpty ? "" : " \"\(reason)\"")
        }
    }
}
