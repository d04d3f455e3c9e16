import NIOCore
import NIOWebSocket

/// An RFC 6455 echo server on NIOWebSocket: each message comes back as it came (text or binary,
/// its fragments joined), each ping is answered with a pong of its payload, a close frame is
/// answered and TCP closed. A frame that breaks the RFC closes the connection with 1002, text
/// that is not UTF-8 with 1007 (at the first fragment that makes it so), a message over the
/// maximum with 1009. The subject the WebSocket
/// suite (Scenarios/websocket-server) tests by default: `linechat serve --websocket --echo`.
public final class WebSocketEchoServer: Sendable {
    public let port: Int
    private let channel: Channel

    /// Listens on `host:port` (0 picks a free port), over TLS when `tls` is a server's, making
    /// the mistakes `quirks` names on purpose.
    public init(host: String, port: Int, maxMessage: Int, tls: TransportTLS? = nil, quirks: WebSocketQuirks = []) throws {
        channel = try WebSocketServerBootstrap.listen(host: host, port: port, maxFrameSize: maxMessage, tls: tls) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(WebSocketFrameRules(quirks: quirks))
                try channel.pipeline.syncOperations.addHandler(
                    NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16, maxAccumulatedFrameSize: maxMessage))
                try channel.pipeline.syncOperations.addHandler(WebSocketEchoHandler(quirks: quirks))
            }
        }
        self.port = channel.localAddress?.port ?? port
    }

    /// Serves until the listening socket closes.
    public func run() async throws {
        try await channel.closeFuture.get()
    }
}
