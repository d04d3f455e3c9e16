import NIOCore
import NIOPosix
import ProbeScript

/// A `connect` about to be made: where to, the connection's name and handler, and the bootstrap.
struct ConnectAttempt {
    var address: Address
    var name: String
    var handler: InboundHandler
    var bootstrap: ClientBootstrap
    /// The address to bind first, from `connect … from`.
    var source: (host: String, port: Int)?
    var receiveBuffer: Int?
    var sendBuffer: Int?
    var timeout: Duration
    var hostNames: HostNames

    /// The connected channel, and for a connection the peer reset before it was handed to NIO,
    /// the bytes it sent first (already in the handler, which is marked reset).
    ///
    /// Each connect is made on a socket of tcpprobe's own (`DirectConnect`), which keeps what a
    /// peer sends before resetting at once. A host name's addresses are tried in turn, within
    /// the one timeout, each given an equal share of what is left (an address that never
    /// answers leaves time for the next); when none connects, a refusal is the answer if any
    /// address gave one. It is called on `loop` and completes there, and no task waits for it:
    /// its callbacks are the loop's isolated ones.
    func connect(on loop: EventLoop) -> EventLoopFuture<(channel: Channel, resetWith: [UInt8]?)> {
        let deadline = ContinuousClock.now + timeout
        let bind: SocketAddress?
        do { bind = try source.map { try SocketAddress(ipAddress: $0.host, port: $0.port) } } catch { return loop.makeFailedFuture(error) }
        return hostNames.addresses(of: address.host, port: address.port, on: loop).assumeIsolated().flatMapThrowing { addresses in
            guard let bind else { return addresses }
            let same = addresses.filter { $0.protocol == bind.protocol }
            guard !same.isEmpty else { throw SourceUnavailable(source: bind, reason: "\(address.host) has no address of its family") }
            return same
        }.flatMap { addresses in
            tryFirst(addresses[...], from: bind, until: deadline, refusal: nil, lastError: nil, on: loop)
        }.nonisolated()
    }

    /// Tries the first of `addresses` with its share of the time left, then the rest.
    private func tryFirst(_ addresses: ArraySlice<SocketAddress>, from bind: SocketAddress?, until deadline: ContinuousClock.Instant,
                          refusal: Error?, lastError: Error?, on loop: EventLoop) -> EventLoopFuture<(channel: Channel, resetWith: [UInt8]?)> {
        let share = (deadline - .now) / max(1, addresses.count)
        guard let ip = addresses.first, share > .zero else {
            return loop.makeFailedFuture(refusal ?? lastError ?? ChannelError.connectTimeout(timeout.timeAmount))
        }
        return DirectConnect.connect(to: ip, from: bind, receiveBuffer: receiveBuffer, sendBuffer: sendBuffer, timeout: share, on: loop)
            .assumeIsolated().flatMap { outcome in
                switch outcome {
                case .sourceUnavailable(let error):
                    let reason = error.errnoCode == EADDRNOTAVAIL ? "not an address of this machine" : "\(error)"
                    return loop.makeFailedFuture(SourceUnavailable(source: bind!, reason: reason))
                case .connected(let fd):
                    return self.bootstrap.withConnectedSocket(fd).map { ($0, nil) }
                case .reset(let fd, let early):
                    self.handler.preload(early)
                    self.handler.finish(.reset)
                    return self.bootstrap.withConnectedSocket(fd).map { ($0, early) }
                case .failed(let error):
                    let refused = error.errnoCode == ECONNREFUSED && refusal == nil
                    return self.tryFirst(addresses.dropFirst(), from: bind, until: deadline, refusal: refused ? error : refusal, lastError: error, on: loop)
                case .timedOut:
                    return self.tryFirst(addresses.dropFirst(), from: bind, until: deadline, refusal: refusal,
                                         lastError: ChannelError.connectTimeout(self.timeout.timeAmount), on: loop)
                }
            }.nonisolated()
    }
}

/// `connect … from` could not bind its source address: an environment error (exit 3).
struct SourceUnavailable: Error, CustomStringConvertible {
    var source: SocketAddress
    var reason: String

    var description: String {
        let host = source.ipAddress ?? "\(source)"
        let port = source.port ?? 0
        return "cannot connect from \(port == 0 ? host : Address(host: host, port: port).description): \(reason)"
    }
}
