import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A listening socket of the probe (`listen`): it queues accepted connections until an
/// `accept` step takes them, in arrival order.
final class ProbeListener: @unchecked Sendable {
    let name: String
    private(set) var channel: Channel?
    private let lock = NIOLock()
    private var accepted: [(Channel, InboundHandler)] = []
    private var waiter: EventLoopPromise<(Channel, InboundHandler)?>?
    /// Accepted channels in arrival order, and those set up but not yet handed over.
    private var arrivals: [ObjectIdentifier] = []
    private var prepared: [ObjectIdentifier: (Channel, InboundHandler)] = [:]

    init(name: String) {
        self.name = name
    }

    var port: Int? { channel?.localAddress?.port }

    /// Binds `host:port` on `group`; accepted connections get the probe's socket options and
    /// buffering, and hold their reads for `captureHold` when the run captures.
    func bind(host: String, port: Int, group: EventLoopGroup, captureHold: CaptureHold?) async throws {
        channel = try await ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(AcceptOrder(listener: self)) }
            }
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { [self] channel in
                let handler = InboundHandler(captureHold: captureHold)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(handler)
                    ready(channel, handler)
                }
            }
            .bind(host: host, port: port).get()
    }

    /// Numbers accepted connections in the order the kernel handed them over: each child is set
    /// up on its own event loop, and `accept` steps must still take them in arrival order.
    private final class AcceptOrder: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = Channel
        let listener: ProbeListener

        init(listener: ProbeListener) { self.listener = listener }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            listener.arrived(unwrapInboundIn(data))
            context.fireChannelRead(data)
        }
    }

    private func arrived(_ channel: Channel) {
        lock.withLock { arrivals.append(ObjectIdentifier(channel)) }
    }

    /// A child is set up: hand over every connection that is ready, in arrival order.
    private func ready(_ channel: Channel, _ handler: InboundHandler) {
        typealias Delivery = (EventLoopPromise<(Channel, InboundHandler)?>, (Channel, InboundHandler))
        let deliveries: [Delivery] = lock.withLock {
            prepared[ObjectIdentifier(channel)] = (channel, handler)
            var out: [Delivery] = []
            while let first = arrivals.first, let connection = prepared.removeValue(forKey: first) {
                arrivals.removeFirst()
                if let waiter {
                    self.waiter = nil
                    out.append((waiter, connection))
                } else {
                    accepted.append(connection)
                }
            }
            return out
        }
        for (waiter, connection) in deliveries { waiter.succeed(connection) }
    }

    /// The next accepted connection, or nil when none arrives within `timeout`.
    func next(within timeout: TimeAmount, on loop: EventLoop) async throws -> (Channel, InboundHandler)? {
        let promise = loop.makePromise(of: (Channel, InboundHandler)?.self)
        let ready: (Channel, InboundHandler)? = lock.withLock {
            if !accepted.isEmpty { return accepted.removeFirst() }
            waiter = promise
            return nil
        }
        if let ready {
            promise.succeed(nil)
            return ready
        }
        let timer = loop.scheduleTask(in: timeout) { [self] in
            let expired = lock.withLock { () -> Bool in
                guard waiter?.futureResult === promise.futureResult else { return false }
                waiter = nil
                return true
            }
            if expired { promise.succeed(nil) }
        }
        let result = try await promise.futureResult.get()
        timer.cancel()
        return result
    }

    /// Stops listening and closes connections no `accept` took.
    func close() async {
        let leftovers = lock.withLock { () -> [(Channel, InboundHandler)] in
            defer { accepted = [] }
            return accepted
        }
        for (channel, _) in leftovers { try? await channel.close().get() }
        try? await channel?.close().get()
    }
}
