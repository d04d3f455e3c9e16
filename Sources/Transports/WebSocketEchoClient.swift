import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// An RFC 6455 echo client on NIOWebSocket: it connects to a `ws://` URL and echoes each message
/// back as it came (masked, as a client's frames are), answers pings and the server's close, and
/// fails the connection on a frame that breaks the RFC, by the rules of `WebSocketEchoServer`.
/// The subject the WebSocket client suite (Scenarios/websocket-client) tests by default:
/// `linechat echo-client URL`.
public enum WebSocketEchoClient {
    /// What stopped a connection before its upgrade was done.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Connects to `url` (`ws://HOST:PORT/PATH`) and echoes until the connection closes.
    public static func run(url: String, maxMessage: Int) async throws {
        let (host, port, path) = try parse(url)
        let upgrader = NIOWebSocketClientUpgrader(maxFrameSize: maxMessage, automaticErrorHandling: false) { channel, _ in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(WebSocketFrameRules(fromServer: true))
                try channel.pipeline.syncOperations.addHandler(
                    NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16, maxAccumulatedFrameSize: maxMessage))
                try channel.pipeline.syncOperations.addHandler(WebSocketEchoHandler(masking: true))
            }
        }
        let request = UpgradeRequest(head: HTTPRequestHead(version: .http1_1, method: .GET, uri: path,
                                                           headers: ["Host": "\(host):\(port)", "Content-Length": "0"]))
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.pipeline.addHTTPClientHandlers(leftOverBytesStrategy: .forwardBytes, withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in })).flatMap {
                    channel.pipeline.addHandler(request)
                }
            }
            .connect(host: host, port: port).get()
        try await channel.closeFuture.get()
        if let failure = request.failure.withLock({ $0 }) { throw failure }
    }

    /// HOST, PORT and PATH of a `ws://` URL.
    static func parse(_ url: String) throws -> (host: String, port: Int, path: String) {
        guard url.hasPrefix("ws://") else { throw Failure(description: "expected a ws:// URL, got '\(url)'") }
        let rest = url.dropFirst(5)
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) else {
            throw Failure(description: "expected ws://HOST:PORT/PATH, got '\(url)'")
        }
        var host = String(authority[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, port, path.isEmpty ? "/" : String(path))
    }

    /// Sends the upgrade request once connected (NIO's upgrader adds its headers), and keeps
    /// what failed the upgrade. Frames pass it by once the upgrade is done.
    final class UpgradeRequest: ChannelInboundHandler, Sendable {
        typealias InboundIn = NIOAny
        typealias OutboundOut = HTTPClientRequestPart

        let head: HTTPRequestHead
        /// Set on the channel's loop, read once the channel has closed.
        let failure = Mutex<Failure?>(nil)

        init(head: HTTPRequestHead) {
            self.head = head
        }

        func channelActive(context: ChannelHandlerContext) {
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            context.fireChannelActive()
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            failure.withLock { if $0 == nil { $0 = Failure(description: "the WebSocket upgrade failed: \(error)") } }
            context.close(promise: nil)
        }
    }
}
