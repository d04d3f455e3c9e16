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
    /// address gave one.
    func connect() async throws -> (channel: Channel, resetWith: [UInt8]?) {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var refusal: Error?
        var lastError: Error?
        var addresses = try await hostNames.addresses(of: address.host, port: address.port)
        let bind = try source.map { try SocketAddress(ipAddress: $0.host, port: $0.port) }
        if let bind {
            addresses = addresses.filter { $0.protocol == bind.protocol }
            guard !addresses.isEmpty else { throw SourceUnavailable(source: bind, reason: "\(address.host) has no address of its family") }
        }
        for (index, ip) in addresses.enumerated() {
            let share = (deadline - clock.now) / (addresses.count - index)
            guard share > .zero else { break }
            switch await DirectConnect.connect(to: ip, from: bind, receiveBuffer: receiveBuffer, sendBuffer: sendBuffer, timeout: share) {
            case .sourceUnavailable(let error):
                throw SourceUnavailable(source: bind!, reason: error.errnoCode == EADDRNOTAVAIL ? "not an address of this machine" : "\(error)")
            case .connected(let fd):
                return (try await bootstrap.withConnectedSocket(fd).get(), nil)
            case .reset(let fd, let early):
                handler.preload(early)
                handler.markReset()
                return (try await bootstrap.withConnectedSocket(fd).get(), early)
            case .failed(let error):
                if error.errnoCode == ECONNREFUSED, refusal == nil { refusal = error }
                lastError = error
            case .timedOut:
                lastError = ChannelError.connectTimeout(timeout.timeAmount)
            }
        }
        throw refusal ?? lastError ?? ChannelError.connectTimeout(timeout.timeAmount)
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
