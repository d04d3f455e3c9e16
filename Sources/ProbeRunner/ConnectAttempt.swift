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
    var receiveBuffer: Int?
    var sendBuffer: Int?
    var timeout: Duration
    /// The channel the bootstrap made, kept by its initializer: a connect that fails because
    /// the peer reset the connection right after the handshake still has a channel to report on.
    let channel: NIOLockedValueBox<Channel?>

    /// The connected channel, and for a connection the peer reset before it was handed to NIO,
    /// the bytes it sent first (already in the handler, which is marked reset).
    ///
    /// An IP address is connected to on a socket of tcpprobe's own (`DirectConnect`), which
    /// keeps what a peer sends before resetting at once; only a host name goes through NIO's
    /// resolver (getaddrinfo on a thread, and Happy Eyeballs), which ten thousand copies would
    /// queue on.
    func connect() async throws -> (channel: Channel, resetWith: [UInt8]?) {
        guard let ip = try? SocketAddress(ipAddress: address.host, port: address.port) else {
            return (try await bootstrap.connect(host: address.host, port: address.port).get(), nil)
        }
        switch await DirectConnect.connect(to: ip, receiveBuffer: receiveBuffer, sendBuffer: sendBuffer, timeout: timeout) {
        case .connected(let fd):
            return (try await bootstrap.withConnectedSocket(fd).get(), nil)
        case .reset(let fd, let early):
            handler.preload(early)
            handler.markReset()
            return (try await bootstrap.withConnectedSocket(fd).get(), early)
        case .failed(let error):
            throw error
        case .timedOut:
            throw ChannelError.connectTimeout(timeout.timeAmount)
        }
    }
}
