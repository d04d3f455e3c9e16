/// A listening socket of one transport kind, handing out accepted connections.
public protocol TransportListener: AnyObject, Sendable {
    /// The port it listens on (useful when bound to port 0).
    var port: Int { get }
    /// Accepted connections, not yet started.
    var connections: AsyncStream<any TCPTransport> { get }
    func close()
}
