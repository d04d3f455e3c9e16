import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// A listening socket whose only answer is NIOWebSocket's upgrade, over TLS when `tls` is a
/// server's: what the WebSocket servers here share. Each upgraded channel goes to `upgraded`,
/// which adds its handlers after NIOWebSocket's frame decoder and encoder.
enum WebSocketServerBootstrap {
    static func listen(host: String, port: Int, maxFrameSize: Int, tls: TransportTLS?,
                       upgraded: @escaping @Sendable (Channel) -> EventLoopFuture<Void>) throws -> Channel {
        let context = try tls?.makeContext()
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                // The decoder's own error handling closes fully, which the servers here do
                // themselves (see WebSocketTransport.Handler.errorCaught).
                let upgrader = NIOWebSocketServerUpgrader(
                    maxFrameSize: maxFrameSize, automaticErrorHandling: false,
                    shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                    upgradePipelineHandler: { channel, _ in upgraded(channel) })
                return channel.eventLoop.makeCompletedFuture {
                    if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                }.flatMap {
                    channel.pipeline.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                }
            }
        return try bootstrap.listen(host: host, port: port)
    }
}
