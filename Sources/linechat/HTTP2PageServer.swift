import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL
import Transports

/// `linechat serve --http2`: an HTTP/2 server on NIOHTTP2, in cleartext (prior knowledge) or
/// over TLS with ALPN `h2`, answering every request with a small page, making the mistakes
/// `quirks` names on purpose. The project's own subject for the HTTP/2 suite, whose planted
/// faults it must catch.
final class HTTP2PageServer: Sendable {
    let port: Int
    private let channel: Channel

    /// Listens on `host:port` (0 picks a free port), over TLS when `tls` is given.
    init(host: String, port: Int, quirks: HTTP2Quirks, tls: TransportTLS? = nil) throws {
        let context = try tls?.makeContext(alpn: ["h2"])
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                    try channel.pipeline.syncOperations.addHandler(HTTP2WireFilter(quirks: quirks))
                }.flatMap {
                    channel.configureHTTP2Pipeline(mode: .server) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandlers([HTTP2FramePayloadToHTTP1ServerCodec(), HTTP2PageResponder()])
                        }
                    }.map { _ in }
                }
            }
        channel = try bootstrap.bind(host: host, port: port).wait()
        self.port = channel.localAddress?.port ?? port
    }

    /// Serves until the listening socket closes.
    func run() async throws {
        try await channel.closeFuture.get()
    }
}
