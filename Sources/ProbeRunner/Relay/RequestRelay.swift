import NIOCore
import NIOPosix

/// A listening socket that reads each connection's HTTP request head (at most 16 KiB, within
/// 10 s), asks `route` where that request goes, and relays the connection there byte for byte,
/// the head first: `tcpprobe autobahn fuzzingserver` hands each client driver's request to the
/// scenario that answers it. `route` starts what listens there and gives its port (the relay
/// tries the connect for 5 s); a request it refuses is answered `404 Not Found`.
package final class RequestRelay: Sendable {
    /// The request's path and query, as its request line gives them ("/runCase?case=1&agent=a").
    package typealias Route = @Sendable (_ target: String) async throws -> Int

    private let channel: Channel

    /// The port it listens on.
    package var port: Int { channel.localAddress?.port ?? 0 }

    package init(host: String, port: Int, route: @escaping Route) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(RequestHead(route: route)) }
            }
            .bind(host: host, port: port).get()
    }

    /// Serves until `close`.
    package func run() async throws {
        try await channel.closeFuture.get()
    }

    package func close() async {
        try? await channel.close()
    }

    /// Takes a connection's bytes until its request head is whole, then relays it. It lives on
    /// its channel's event loop, where NIO calls its handlers and its futures' callbacks run.
    final class RequestHead: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        private let route: Route
        /// What came before the relay was in place: the head, and what followed it.
        private var early = ByteBuffer()
        private var routed = false
        private var relaying = false

        init(route: @escaping Route) {
            self.route = route
        }

        func handlerAdded(context: ChannelHandlerContext) {
            context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(10)) { [weak self] in
                if self?.routed == false { context.close(promise: nil) }
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !relaying else { return context.fireChannelRead(data) }
            var bytes = unwrapInboundIn(data)
            early.writeBuffer(&bytes)
            guard !routed else { return }
            let view = early.readableBytesView
            guard let lineEnd = view.firstRange(of: [13, 10]), view.firstRange(of: [13, 10, 13, 10]) != nil else {
                if early.readableBytes > 16 * 1024 { context.close(promise: nil) }
                return
            }
            routed = true
            let words = String(decoding: view[view.startIndex..<lineEnd.lowerBound], as: UTF8.self).split(separator: " ")
            let target = words.count >= 2 ? String(words[1]) : ""
            let channel = context.channel
            channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            let route = self.route
            let port = context.eventLoop.makePromise(of: Int.self)
            port.completeWithTask { try await route(target) }
            port.futureResult.assumeIsolated().flatMap { port in
                RelayLink.connect(to: port, on: channel.eventLoop)
            }.flatMap { server in
                RelayLink.glue(channel, server).assumeIsolated().flatMap { [self] in
                    self.relaying = true
                    let first = self.early
                    self.early = ByteBuffer()
                    return server.writeAndFlush(first)
                }.nonisolated().flatMap {
                    channel.setOption(ChannelOptions.autoRead, value: true)
                }
            }.whenFailure { _ in
                let answer = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                channel.writeAndFlush(ByteBuffer(string: answer)).whenComplete { _ in channel.close(promise: nil) }
            }
        }
    }
}
