import NIOCore

/// Sends a line, waits for all of its echo, and sends the next.
final class PingPong: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private let count: Int
    private let done: EventLoopPromise<Void>
    private var sent = 0
    private var line = ByteBuffer()
    private var received = ByteBuffer()

    init(count: Int, done: EventLoopPromise<Void>) {
        self.count = count
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) {
        sendNext(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        guard received.readableBytes >= line.readableBytes else { return }
        guard received.readableBytesView.elementsEqual(line.readableBytesView) else {
            return done.fail(ChannelError.inappropriateOperationForState)
        }
        received.clear()
        if sent == count { done.succeed() } else { sendNext(context) }
    }

    private func sendNext(_ context: ChannelHandlerContext) {
        line.clear()
        line.writeString("ping \(sent)\r\n")
        sent += 1
        context.writeAndFlush(NIOAny(line), promise: nil)
    }
}
