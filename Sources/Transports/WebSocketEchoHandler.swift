import NIOCore
import NIOWebSocket

/// Echoes each whole message back with its own opcode and answers pings and closes, for
/// `WebSocketEchoServer` and `WebSocketEchoClient` (their `WebSocketFrameRules` have checked
/// the frames); after a close frame sent it reads nothing more and closes TCP's output, reading
/// on to the peer's FIN (§7.1.1: the server closes TCP first). `quirks` plants the echo
/// server's mistakes. It lives on its channel's event loop, where NIO calls its handlers.
final class WebSocketEchoHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let quirks: WebSocketQuirks
    /// A client's handler masks its frames (`WebSocketEchoClient`); a server's does not.
    private let masking: Bool
    private var closeSent = false
    /// Set by the `ignoresFragmentedControl` quirk: the connection neither answers nor closes.
    private var hung = false

    init(quirks: WebSocketQuirks = [], masking: Bool = false) {
        self.quirks = quirks
        self.masking = masking
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closeSent, !hung else { return }
        let frame = unwrapInboundIn(data)
        let payload = Array(frame.unmaskedData.readableBytesView)
        switch frame.opcode {
        case .text, .binary:
            write(context, frame.opcode, payload)
        case .ping:
            write(context, .pong, quirks.contains(.emptyPongs) ? [] : payload)
        case .connectionClose:
            close(context, code: payload.isEmpty && quirks.contains(.sendsCode1005) ? 1005 : Self.answer(toClose: payload))
        default:
            break
        }
    }

    /// The code that answers a close frame's payload: its own code when it may be sent, 1000
    /// when it has none, 1002 for a payload of one byte or a code no endpoint may send (§7.4),
    /// 1007 for a reason that is not UTF-8.
    static func answer(toClose payload: [UInt8]) -> UInt16 {
        guard payload.count >= 2 else { return payload.isEmpty ? 1000 : 1002 }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard (1000...1003).contains(code) || (1007...1011).contains(code) || (3000...4999).contains(code) else { return 1002 }
        return String(validating: payload[2...], as: UTF8.self) == nil ? 1007 : code
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if quirks.contains(.ignoresFragmentedControl), hung || (error as? NIOWebSocketError) == .fragmentedControlFrame {
            hung = true
            return
        }
        close(context, code: WebSocketFailure.closeCode(for: error))
    }

    private func write(_ context: ChannelHandlerContext, _ opcode: WebSocketOpcode, _ payload: [UInt8]) {
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, maskKey: masking ? .random() : nil, data: context.channel.allocator.buffer(bytes: payload))), promise: nil)
    }

    private func close(_ context: ChannelHandlerContext, code: UInt16) {
        guard !closeSent else { return }
        closeSent = true
        write(context, .connectionClose, [UInt8(code >> 8), UInt8(code & 0xFF)])
        context.close(mode: .output, promise: nil)
    }
}
