import NIOCore
import NIOPosix
import Transports

/// A listening socket handing out `AsyncChannelTransport`s, adopting `TransportListener`.
final class AsyncChannelListener: TransportListener {
    let port: Int
    let connections: AsyncStream<any TCPTransport>
    private let server: NIOAsyncChannel<AsyncChannelTransport.Channel, Never>

    /// Listens on `host`:`port` (0 picks a free port).
    init(host: String, port: Int) async throws {
        server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try AsyncChannelTransport.wrap(channel) }
            }
        self.port = server.channel.localAddress?.port ?? port
        let (connections, accepted) = AsyncStream.makeStream(of: (any TCPTransport).self)
        self.connections = connections
        let server = server
        Task {
            try? await server.executeThenClose { inbound in
                for try await channel in inbound { accepted.yield(AsyncChannelTransport.accepted(channel)) }
            }
            accepted.finish()
        }
    }

    func close() {
        server.channel.close(promise: nil)
    }
}
