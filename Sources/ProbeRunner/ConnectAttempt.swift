import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ProbeScript

/// A `connect` about to be made: where to, the connection's name and handler, and the bootstrap.
struct ConnectAttempt {
    var address: Address
    var name: String
    var handler: InboundHandler
    var bootstrap: ClientBootstrap
    /// The channel the bootstrap made, kept by its initializer: a connect that fails because
    /// the peer reset the connection right after the handshake still has a channel to report on.
    let channel: NIOLockedValueBox<Channel?>

    /// An IP address is connected to directly; only a host name goes through the resolver
    /// (getaddrinfo on a thread, and Happy Eyeballs), which ten thousand copies would queue on.
    func connect() -> EventLoopFuture<Channel> {
        if let ip = try? SocketAddress(ipAddress: address.host, port: address.port) { return bootstrap.connect(to: ip) }
        return bootstrap.connect(host: address.host, port: address.port)
    }
}
