import NIOCore
import NIOWebSocket

/// Fails a connection on a frame NIOWebSocket's decoder lets through but RFC 6455 forbids when
/// no extension was agreed: a reserved bit set (§5.2), a reserved opcode (3-7, 11-15), fragments
/// out of order (§5.4), and text that is not UTF-8, refused at the first fragment that makes it
/// so (§8.1, "fail fast"); and a frame masked as it must not be from its sender (§5.1: a client
/// masks its frames, a server does not). It sits before the frame aggregator, which keeps the
/// bits of the first fragment only. `quirks` turns checks off on purpose (see `WebSocketQuirks`).
/// It lives on its channel's event loop, where NIO calls its handlers.
final class WebSocketFrameRules: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    /// A frame that breaks the RFC, and the close code that says so.
    struct Breach: Error, CustomStringConvertible {
        let description: String
        var code: UInt16 = 1002
    }

    static let knownOpcodes: [WebSocketOpcode] = [.continuation, .text, .binary, .connectionClose, .ping, .pong]

    private let quirks: WebSocketQuirks
    /// The frames come from a server (to a client): unmasked; else masked.
    private let fromServer: Bool
    /// The fragmented message under way, if any; its text so far when it is text.
    private var message: (opcode: WebSocketOpcode, text: UTF8Stream?)?

    init(quirks: WebSocketQuirks = [], fromServer: Bool = false) {
        self.quirks = quirks
        self.fromServer = fromServer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var frame = unwrapInboundIn(data)
        do {
            try check(&frame)
            context.fireChannelRead(wrapInboundOut(frame))
        } catch {
            context.fireErrorCaught(error)
        }
    }

    private func check(_ frame: inout WebSocketFrame) throws {
        if (frame.maskKey == nil) != fromServer {
            throw Breach(description: fromServer ? "a frame from the server is masked" : "a frame from the client is not masked")
        }
        if (frame.rsv1 || frame.rsv2 || frame.rsv3) && !quirks.contains(.ignoresReservedBits) {
            throw Breach(description: "a reserved bit is set")
        }
        guard Self.knownOpcodes.contains(frame.opcode) else { throw Breach(description: "the opcode is reserved") }
        guard frame.opcode == .continuation || frame.opcode == .text || frame.opcode == .binary else { return }
        if frame.opcode == .continuation, message == nil {
            guard quirks.contains(.acceptsFragmentsOutOfOrder) else { throw Breach(description: "a continuation frame with nothing to continue") }
            frame.opcode = .text
        } else if frame.opcode != .continuation, message != nil {
            guard quirks.contains(.acceptsFragmentsOutOfOrder) else { throw Breach(description: "a new message inside a fragmented one") }
            frame.opcode = .continuation
        }
        if frame.opcode != .continuation {
            message = (frame.opcode, frame.opcode == .text && !quirks.contains(.acceptsInvalidUTF8) ? UTF8Stream() : nil)
        }
        if var text = message?.text {
            guard text.take(frame.unmaskedData.readableBytesView), !frame.fin || text.isComplete else {
                throw Breach(description: "the text is not UTF-8", code: 1007)
            }
            message?.text = text
        }
        if frame.fin { message = nil }
    }
}
