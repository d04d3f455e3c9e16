import NIOWebSocket

/// Joins a WebSocket connection's data frames into messages (RFC 6455 §5.4): a text or binary
/// frame without FIN opens a message, continuation frames carry it on, the one with FIN ends
/// it; control frames stand between them on their own and do not pass through here. The live
/// reader and the wire checks both join through it, so they agree on a broken stream: a
/// continuation with no message open, or a new message before the open one ended, is a
/// violation for both, and neither reads a message past it.
package struct WebSocketMessageJoiner {
    /// A whole message: its first frame's opcode, its fragments' payloads joined, and where
    /// its first frame began (a stream offset, for the wire checks).
    package struct Message: Equatable {
        package var opcode: WebSocketOpcode
        package var payload: [UInt8]
        package var start: Int
    }

    /// Why a frame cannot join: in RFC 6455's words.
    package struct Violation: Error, Equatable, CustomStringConvertible {
        package let description: String
    }

    /// The most bytes a fragmented message may hold (`set max-message`).
    private let maxMessage: Int
    private var open: Message?

    package init(maxMessage: Int = .max) {
        self.maxMessage = maxMessage
    }

    /// Takes a text, binary or continuation frame that began at `start`: the message it ends,
    /// or nil while the message stays open.
    package mutating func take(_ opcode: WebSocketOpcode, fin: Bool, payload: [UInt8], start: Int = 0) throws(Violation) -> Message? {
        var message: Message
        if opcode == .continuation {
            guard let open else { throw Violation(description: "a continuation frame with no fragmented message to continue (RFC 6455 §5.4)") }
            message = open
            message.payload += payload
            guard message.payload.count <= maxMessage else {
                throw Violation(description: "a fragmented message over max-message \(maxMessage) bytes (set max-message)")
            }
        } else {
            guard open == nil else {
                throw Violation(description: "a new \(opcode == .text ? "text" : "binary") message began before the fragmented one ended (RFC 6455 §5.4)")
            }
            message = Message(opcode: opcode, payload: payload, start: start)
        }
        if fin {
            open = nil
            return message
        }
        open = message
        return nil
    }
}
