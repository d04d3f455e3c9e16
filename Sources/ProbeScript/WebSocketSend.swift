/// What `send text|binary|ping|pong|close` puts on a WebSocket connection: one frame (a
/// client's masked, a server's not).
package enum WebSocketSend: Sendable, Hashable {
    case text(Template)
    case binary(Template)
    case ping(Template?)
    case pong(Template?)
    /// `send close [CODE ["reason"]]`.
    case close(code: Argument<Int>?, reason: Template?)
    /// `send frame OPCODE ["data"] [fin on|off] [mask on|off] [rsv1|rsv2|rsv3 on|off]`: one raw
    /// frame with the bits chosen (mask nil: as the role says), to test a peer's validation.
    case frame(RawWebSocketFrame)

    package var templates: [Template] {
        switch self {
        case .text(let data), .binary(let data): return [data]
        case .ping(let data), .pong(let data): return data.map { [$0] } ?? []
        case .close(let code, let reason): return code.templates + (reason.map { [$0] } ?? [])
        case .frame(let frame): return frame.data.map { [$0] } ?? []
        }
    }
}

/// A raw frame's header bits and payload (`send frame`).
package struct RawWebSocketFrame: Sendable, Hashable {
    /// text 1, binary 2, continuation 0, ping 9, pong 10, close 8, or any of 0-15.
    package var opcode: UInt8
    package var data: Template?
    package var fin = true
    package var mask: Bool?
    package var rsv1 = false
    package var rsv2 = false
    package var rsv3 = false

    package init(opcode: UInt8, data: Template?) {
        self.opcode = opcode
        self.data = data
    }

    package static let opcodes: [String: UInt8] = ["continuation": 0, "text": 1, "binary": 2, "close": 8, "ping": 9, "pong": 10]
}
