import NIOCore
import NIOPosix

/// Two connections glued together: what one reads the other writes, a half-close (FIN)
/// carried over as a half-close, and a connection's end, or its error, ends the other. For
/// `RequestRelay`.
enum RelayLink {
    /// Connects to 127.0.0.1:`port` on `loop`, trying for 5 s while what listens there starts.
    static func connect(to port: Int, on loop: EventLoop) -> EventLoopFuture<Channel> {
        let deadline = NIODeadline.now() + .seconds(5)
        @Sendable func attempt() -> EventLoopFuture<Channel> {
            ClientBootstrap(group: loop)
                .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
                .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
                .connect(host: "127.0.0.1", port: port)
                .flatMapError { error in
                    guard NIODeadline.now() < deadline else { return loop.makeFailedFuture(error) }
                    return loop.scheduleTask(in: .milliseconds(20)) {}.futureResult.flatMap { attempt() }
                }
        }
        return attempt()
    }

    /// Glues `client` and `server` together (both on one loop).
    static func glue(_ client: Channel, _ server: Channel) -> EventLoopFuture<Void> {
        server.pipeline.addHandler(Glue(other: client)).flatMap { client.pipeline.addHandler(Glue(other: server)) }
    }

    /// Writes what its channel reads to `other`.
    final class Glue: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer

        let other: Channel

        init(other: Channel) {
            self.other = other
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            other.writeAndFlush(unwrapInboundIn(data), promise: nil)
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case ChannelEvent.inputClosed = event { other.close(mode: .output, promise: nil) }
            context.fireUserInboundEventTriggered(event)
        }

        func channelInactive(context: ChannelHandlerContext) {
            other.close(promise: nil)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            context.close(promise: nil)
        }
    }
}
