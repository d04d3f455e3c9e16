import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// Accepts WebSocket clients: an HTTP/1.1 server whose only answer is NIOWebSocket's upgrade,
/// over TLS when `tls` is a server's; each upgraded connection is a `WebSocketTransport`.
public final class WebSocketTransportListener: TransportListener, @unchecked Sendable {
    public let port: Int
    public let connections: AsyncStream<any TCPTransport>
    private let channel: Channel

    /// Listens on `host:port`; a message (its fragments joined) over `maxMessage` bytes is
    /// closed with 1009, unless `quirks` says to accept any size.
    public init(host: String, port: Int, maxMessage: Int, tls: TransportTLS? = nil, quirks: WebSocketQuirks = []) throws {
        let (stream, continuation) = AsyncStream.makeStream(of: (any TCPTransport).self)
        connections = stream
        let context = try tls?.makeContext()
        let maximum = quirks.contains(.noMaxMessage) ? 1 << 24 : maxMessage
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                let upgrader = NIOWebSocketServerUpgrader(
                    maxFrameSize: maximum, automaticErrorHandling: false,
                    shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                    upgradePipelineHandler: { channel, _ in
                        let transport = WebSocketTransport(upgraded: channel, quirks: quirks)
                        return channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(
                                NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16, maxAccumulatedFrameSize: maximum))
                            try channel.pipeline.syncOperations.addHandler(transport.handler)
                            continuation.yield(transport)
                        }
                    })
                return channel.eventLoop.makeCompletedFuture {
                    if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                }.flatMap {
                    channel.pipeline.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                }
            }
        channel = try bootstrap.listen(host: host, port: port)
        self.port = channel.localAddress?.port ?? port
        channel.closeFuture.whenComplete { _ in continuation.finish() }
    }

    public func close() {
        channel.close(promise: nil)
    }
}
