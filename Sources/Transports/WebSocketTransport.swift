import NIOCore
import NIOPosix
import NIOWebSocket
import Synchronization

/// A server's WebSocket connection (RFC 6455, on NIOWebSocket) as a line transport: each
/// message in is a line, each line out a text message with no terminator. Pings are answered;
/// `stop` sends a close frame and closes once the client answers (or 5 s pass); a client's
/// close frame is answered, then the server shuts down its output. `quirks` plants deliberate
/// mistakes.
public final class WebSocketTransport: TCPTransport, Sendable {
    private let core = TransportCore(unframer: LineFraming())
    private let channel: Channel
    private let quirks: WebSocketQuirks
    private let closeSent = Mutex(false)

    public var state: TransportState { core.state }
    public var events: AsyncStream<TransportEvent> { core.events }

    init(upgraded channel: Channel, quirks: WebSocketQuirks) {
        self.channel = channel
        self.quirks = quirks
    }

    var handler: Handler { Handler(transport: self) }

    public func start() {
        if core.beginStarting() { core.started() }
    }

    public func send(line: String) { send(bytes: Array(line.utf8)) }

    /// One text message of `bytes`.
    public func send(bytes: [UInt8]) {
        guard !closeSent.withLock({ $0 }) else { return }
        if quirks.contains(.badFragments), bytes.count > 1 {
            let half = bytes.count / 2
            write(.text, Array(bytes[..<half]), fin: false)
            write(.text, Array(bytes[half...]))
        } else {
            write(.text, bytes)
        }
    }

    public func stop() {
        if quirks.contains(.noCloseFrame) {
            channel.close(promise: nil)
            return
        }
        sendClose(code: 1000)
        channel.eventLoop.scheduleTask(in: .seconds(5)) { [channel] in channel.close(promise: nil) }
    }

    public func abort() {
        (channel as? SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { [channel] _ in channel.close(promise: nil) }
    }

    private func write(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) {
        let frame = WebSocketFrame(fin: fin, opcode: opcode, maskKey: quirks.contains(.masksFrames) ? .random() : nil,
                                   data: channel.allocator.buffer(bytes: payload))
        channel.writeAndFlush(frame, promise: nil)
    }

    /// Our close frame, once.
    private func sendClose(code: UInt16) {
        let first = closeSent.withLock { sent -> Bool in
            defer { sent = true }
            return !sent
        }
        if first { write(.connectionClose, [UInt8(code >> 8), UInt8(code & 0xFF)]) }
    }

    /// Lives on its channel's event loop, where NIO calls its handlers.
    final class Handler: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        let transport: WebSocketTransport
        private var peerClosed = false

        init(transport: WebSocketTransport) { self.transport = transport }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            let payload = Array(frame.unmaskedData.readableBytesView)
            switch frame.opcode {
            case .text, .binary:
                transport.core.received(line: String(decoding: payload, as: UTF8.self))
            case .ping:
                transport.write(.pong, payload)
            case .connectionClose:
                guard !peerClosed else { return }
                peerClosed = true
                // Answered before the application hears of it: its own `stop` must find the
                // close frame sent, or its write could land after the FIN below.
                if !transport.quirks.contains(.noCloseFrame) {
                    transport.sendClose(code: payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 1000)
                }
                transport.core.peerClosed()
                // The server closes TCP first (§7.1.1): FIN (over TLS, close_notify and FIN),
                // and the channel closes when the client's FIN comes.
                context.close(mode: .output, promise: nil)
            default:
                break
            }
        }

        /// A message over the maximum, in one frame or joined from fragments, is closed with
        /// 1009; any other error of the frames with 1002. TCP closes as after any close: FIN,
        /// reading on to the client's FIN. (A full close with the rest of the message unread
        /// made the kernel send RST instead, when the rest arrived after the frame's header: so
        /// the decoder's own error handling, which closes fully, is off.)
        func errorCaught(context: ChannelHandlerContext, error: Error) {
            transport.sendClose(code: WebSocketFailure.closeCode(for: error))
            context.close(mode: .output, promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            if !peerClosed { transport.core.peerClosed() }
            transport.core.stopped(nil)
            context.fireChannelInactive()
        }
    }
}
