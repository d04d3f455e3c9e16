import NIOCore
import NIOWebSocket

/// Fails a connection on a frame NIOWebSocket's decoder lets through but RFC 6455 forbids when
/// no extension was agreed: a reserved bit set (§5.2) or a reserved opcode (3-7, 11-15). It sits
/// before the frame aggregator, which keeps the bits of the first fragment only.
final class WebSocketFrameRules: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    struct Breach: Error, CustomStringConvertible {
        let description: String
    }

    static let knownOpcodes: [WebSocketOpcode] = [.continuation, .text, .binary, .connectionClose, .ping, .pong]

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if frame.rsv1 || frame.rsv2 || frame.rsv3 {
            context.fireErrorCaught(Breach(description: "a reserved bit is set"))
        } else if !Self.knownOpcodes.contains(frame.opcode) {
            context.fireErrorCaught(Breach(description: "the opcode is reserved"))
        } else {
            context.fireChannelRead(data)
        }
    }
}
