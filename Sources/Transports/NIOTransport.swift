import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization

/// A transport on SwiftNIO: a channel handler feeds the unframer; writes go through the
/// pipeline, and through TLS when it has some.
public final class NIOTransport: TCPTransport, Sendable {
    private let core: TransportCore
    private let target: (host: String, port: Int)?
    private let tls: TransportTLS?
    /// Its channel once connected, and what was asked of it before.
    private struct Link {
        var channel: Channel?
        var outputClosed = false
        /// Writes (and a stop) asked for while a client is still connecting, applied in order once it is.
        var pending: [[UInt8]] = []
        var pendingStop = false
    }
    private let link: Mutex<Link>

    public var state: TransportState { core.state }
    public var events: AsyncStream<TransportEvent> { core.events }

    /// A client of `host:port`, over TLS when `tls` is a client's.
    public init(connectingTo host: String, port: Int, unframer: any LineUnframer = LineFraming(), tls: TransportTLS? = nil) {
        core = TransportCore(unframer: unframer)
        target = (host, port)
        self.tls = tls
        link = Mutex(Link())
    }

    init(accepted channel: Channel, unframer: any LineUnframer) {
        core = TransportCore(unframer: unframer)
        target = nil
        tls = nil
        link = Mutex(Link(channel: channel))
    }

    fileprivate var handler: Handler { Handler(transport: self) }

    public func start() {
        guard core.beginStarting() else { return }
        if let target {
            let context: NIOSSLContext?
            do {
                context = try tls?.makeContext()
            } catch {
                core.stopped(error)
                return
            }
            let serverName = tls?.serverName
            ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
                .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
                .channelInitializer { [self] channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let context {
                            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                        }
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }
                .connect(host: target.host, port: target.port)
                .whenComplete { [self] result in
                    switch result {
                    case .success(let channel):
                        // Over TLS it starts once the handshake is done (`handshakeCompleted`):
                        // a half-close issued before would end the connection mid-handshake.
                        if context == nil { begin(on: channel) }
                    case .failure(let error):
                        core.stopped(error)
                    }
                }
        } else {
            // Accepted: its handler was installed on the event loop as it was accepted, and the
            // event stream has kept whatever arrived since.
            core.started()
        }
    }

    /// Connected (and over TLS, shaken hands): reports the start and sends what waited.
    fileprivate func begin(on channel: Channel) {
        let (writes, stop) = link.withLock { link -> ([[UInt8]], Bool) in
            link.channel = channel
            defer { link.pending = [] }
            return (link.pending, link.pendingStop)
        }
        core.started()
        for bytes in writes { channel.write(channel.allocator.buffer(bytes: bytes), promise: nil) }
        channel.flush()
        if stop { channel.close(mode: .output, promise: nil) }
    }

    public func send(bytes: [UInt8]) {
        guard let channel = link.withLock({ link -> Channel? in
            if link.channel == nil, !link.outputClosed { link.pending.append(bytes) }
            return link.channel
        }) else { return }
        channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
    }

    public func stop() {
        guard let channel = link.withLock({ link -> Channel? in
            link.outputClosed = true
            if link.channel == nil { link.pendingStop = true }
            return link.channel
        }) else { return }
        channel.close(mode: .output, promise: nil)
    }

    fileprivate var hasClosedOutput: Bool { link.withLock { $0.outputClosed } }

    /// Resets the connection: SO_LINGER 0, then a close that, over TLS, goes past the TLS
    /// handler, which would send close_notify and wait for the peer's first.
    public func abort() {
        guard let channel = link.withLock({ $0.channel }) else { return }
        (channel as? SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
            channel.pipeline.context(handlerType: NIOSSLHandler.self).whenComplete { found in
                switch found {
                case .success(let tlsContext): tlsContext.close(promise: nil)
                case .failure: channel.close(promise: nil)
                }
            }
        }
    }

    /// Lives on its channel's event loop, where NIO calls its handlers.
    fileprivate final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let transport: NIOTransport
        private var failure: (any Error)?
        private var peerClosed = false

        init(transport: NIOTransport) { self.transport = transport }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            transport.core.received(unwrapInboundIn(data).readableBytesView)
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case TLSUserEvent.handshakeCompleted = event, transport.target != nil {
                transport.begin(on: context.channel)
            }
            if case ChannelEvent.inputClosed = event {
                peerClosed = true
                transport.core.peerClosed()
            }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            failure = failure ?? error
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            // After our own half-close, NIO closes the channel on the peer's FIN without an
            // inputClosed event: report the half-close that happened.
            if !peerClosed, failure == nil, transport.hasClosedOutput { transport.core.peerClosed() }
            transport.core.stopped(failure)
            context.fireChannelInactive()
        }
    }
}

/// Accepts connections with a NIO server bootstrap.
public final class NIOTransportListener: TransportListener, Sendable {
    public let port: Int
    public let connections: AsyncStream<any TCPTransport>
    private let channel: Channel

    /// Listens on `host:port`, over TLS when `tls` is a server's.
    public init(host: String, port: Int, tls: TransportTLS? = nil, makeUnframer: @escaping @Sendable () -> any LineUnframer) throws {
        let (stream, continuation) = AsyncStream.makeStream(of: (any TCPTransport).self)
        connections = stream
        let context = try tls?.makeContext()
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                let transport = NIOTransport(accepted: channel, unframer: makeUnframer())
                return channel.eventLoop.makeCompletedFuture {
                    if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                    try channel.pipeline.syncOperations.addHandler(transport.handler)
                    continuation.yield(transport)
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
