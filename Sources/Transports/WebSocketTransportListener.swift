import NIOCore
import NIOWebSocket

/// Accepts WebSocket clients: an HTTP/1.1 server whose only answer is NIOWebSocket's upgrade,
/// over TLS when `tls` is a server's; each upgraded connection is a `WebSocketTransport`.
public final class WebSocketTransportListener: TransportListener, Sendable {
    public let port: Int
    public let connections: AsyncStream<any TCPTransport>
    private let channel: Channel

    /// Listens on `host:port`; a message (its fragments joined) over `maxMessage` bytes is
    /// closed with 1009, unless `quirks` says to accept any size.
    public init(host: String, port: Int, maxMessage: Int, tls: TransportTLS? = nil, quirks: WebSocketQuirks = []) throws {
        let (stream, continuation) = AsyncStream.makeStream(of: (any TCPTransport).self)
        connections = stream
        let maximum = quirks.contains(.noMaxMessage) ? 1 << 24 : maxMessage
        channel = try WebSocketServerBootstrap.listen(host: host, port: port, maxFrameSize: maximum, tls: tls) { channel in
            let transport = WebSocketTransport(upgraded: channel, quirks: quirks)
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16, maxAccumulatedFrameSize: maximum))
                try channel.pipeline.syncOperations.addHandler(transport.handler)
                continuation.yield(transport)
            }
        }
        self.port = channel.localAddress?.port ?? port
        channel.closeFuture.whenComplete { _ in continuation.finish() }
    }

    public func close() {
        channel.close(promise: nil)
    }
}
