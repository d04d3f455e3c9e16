/// The transport implementations available on this platform.
public enum TransportKind: String, Sendable, CaseIterable {
    case bsd, dispatch, nio

    /// A listener of this kind on `host:port`, giving each accepted connection `makeUnframer()`.
    public func listen(host: String, port: Int, makeUnframer: @escaping @Sendable () -> any LineUnframer) throws -> any TransportListener {
        switch self {
        case .bsd: return try BSDSocketListener(host: host, port: port, makeUnframer: makeUnframer)
        case .dispatch: return try DispatchSocketListener(host: host, port: port, makeUnframer: makeUnframer)
        case .nio: return try NIOTransportListener(host: host, port: port, makeUnframer: makeUnframer)
        }
    }

    /// A client connection of this kind to `host:port` (call `start()` to connect).
    public func connect(host: String, port: Int, unframer: any LineUnframer = LineFraming()) -> any TCPTransport {
        switch self {
        case .bsd: return BSDSocketTransport(connectingTo: host, port: port, unframer: unframer)
        case .dispatch: return DispatchSocketTransport(connectingTo: host, port: port, unframer: unframer)
        case .nio: return NIOTransport(connectingTo: host, port: port, unframer: unframer)
        }
    }
}
