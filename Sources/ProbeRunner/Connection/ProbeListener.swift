import FoundationEssentials
import NIOCore
import NIOPosix
import Synchronization

/// A connection a listener accepted, set up and waiting for an `accept` step.
struct AcceptedConnection {
    let channel: Channel
    let handler: NIOLoopBound<InboundHandler>
    /// Its TLS layer, its handshake under way, on a `listen … tls`.
    let tls: TLSSession?
}

/// A listening socket of the probe (`listen`): it queues accepted connections until an
/// `accept` step takes them, in arrival order.
final class ProbeListener: Sendable {
    let name: String
    /// The listening channel, and a file made for this listener (its run-time certificate),
    /// removed when it closes.
    private let held = Mutex<(channel: Channel?, ownedFile: String?)>((nil, nil))
    /// Connections ready for an `accept`, and the `accept` waiting for one.
    private struct Queue {
        var accepted: [AcceptedConnection] = []
        var waiter: EventLoopPromise<AcceptedConnection?>?
        /// Accepted channels in arrival order, and those set up but not yet handed over.
        var arrivals: [ObjectIdentifier] = []
        var prepared: [ObjectIdentifier: AcceptedConnection] = [:]
    }
    private let queue = Mutex(Queue())

    init(name: String) {
        self.name = name
    }

    var channel: Channel? { held.withLock { $0.channel } }

    var ownedFile: String? {
        get { held.withLock { $0.ownedFile } }
        set { held.withLock { $0.ownedFile = newValue } }
    }

    var port: Int? { channel?.localAddress?.port }

    /// Binds `host:port` on `group` (or listens on `boundSocket`, already bound there, which it
    /// then owns); accepted connections get the probe's socket options and
    /// buffering, hold their reads for `captureHold` when the run captures, and with `tls`
    /// begin their handshake as they arrive (the `accept` step waits for its outcome).
    func bind(host: String, port: Int, boundSocket: Int32? = nil, group: EventLoopGroup, captureHold: CaptureHold?,
              tls: (@Sendable (Channel) throws -> TLSSession)?) async throws {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(AcceptOrder(listener: self)) }
            }
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = InboundHandler(captureHold: captureHold)
                    try channel.pipeline.syncOperations.addHandler(handler)
                    let session = try tls.map { make in
                        let session = try make(channel)
                        try session.install(on: channel, early: nil)
                        return session
                    }
                    ready(AcceptedConnection(channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop), tls: session))
                }
            }
        let bound = if let boundSocket {
            try await bootstrap.withBoundSocket(boundSocket).get()
        } else {
            try await bootstrap.bind(host: host, port: port).get()
        }
        held.withLock { $0.channel = bound }
    }

    /// Numbers accepted connections in the order the kernel handed them over: each child is set
    /// up on its own event loop, and `accept` steps must still take them in arrival order.
    private final class AcceptOrder: ChannelInboundHandler, Sendable {
        typealias InboundIn = Channel
        let listener: ProbeListener

        init(listener: ProbeListener) { self.listener = listener }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            listener.arrived(unwrapInboundIn(data))
            context.fireChannelRead(data)
        }
    }

    private func arrived(_ channel: Channel) {
        queue.withLock { $0.arrivals.append(ObjectIdentifier(channel)) }
    }

    /// A child is set up: hand over every connection that is ready, in arrival order.
    private func ready(_ connection: AcceptedConnection) {
        typealias Delivery = (EventLoopPromise<AcceptedConnection?>, AcceptedConnection)
        let deliveries: [Delivery] = queue.withLock { queue in
            queue.prepared[ObjectIdentifier(connection.channel)] = connection
            var out: [Delivery] = []
            while let first = queue.arrivals.first, let connection = queue.prepared.removeValue(forKey: first) {
                queue.arrivals.removeFirst()
                if let waiter = queue.waiter {
                    queue.waiter = nil
                    out.append((waiter, connection))
                } else {
                    queue.accepted.append(connection)
                }
            }
            return out
        }
        for (waiter, connection) in deliveries { waiter.succeed(connection) }
    }

    /// The next accepted connection, or nil when none arrives within `timeout`.
    func next(within timeout: TimeAmount, on loop: EventLoop) async throws -> AcceptedConnection? {
        let promise = loop.makePromise(of: AcceptedConnection?.self)
        let ready: AcceptedConnection? = queue.withLock { queue in
            if !queue.accepted.isEmpty { return queue.accepted.removeFirst() }
            queue.waiter = promise
            return nil
        }
        if let ready {
            promise.succeed(nil)
            return ready
        }
        let timer = loop.scheduleTask(in: timeout) { [self] in
            let expired = queue.withLock { queue -> Bool in
                guard queue.waiter?.futureResult === promise.futureResult else { return false }
                queue.waiter = nil
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
        let leftovers = queue.withLock { queue -> [AcceptedConnection] in
            defer { queue.accepted = [] }
            return queue.accepted
        }
        for leftover in leftovers { try? await leftover.channel.close().get() }
        try? await channel?.close().get()
        if let ownedFile { try? FileManager.default.removeItem(atPath: ownedFile) }
    }
}
