/// One TCP connection that sends and receives lines: the classic TCPTransport, in Swift
/// concurrency. Operations never block; what happens comes as `events`.
public protocol TCPTransport: AnyObject, Sendable {
    var state: TransportState { get }
    /// Started, received lines, a framing error, the peer's half-close, stopped: each at most once but lines.
    var events: AsyncStream<TransportEvent> { get }
    /// Connects (a client) or begins reading (an accepted connection).
    func start()
    /// Sends `line` framed with CR LF.
    func send(line: String)
    /// Sends bytes exactly as given (for protocols and faults that need them).
    func send(bytes: [UInt8])
    /// Graceful stop: pending writes go out, then FIN; the connection ends once the peer closes too.
    func stop()
    /// Abortive stop: RST now.
    func abort()
}

extension TCPTransport {
    public func send(line: String) { send(bytes: LineFraming.frame(line)) }
}
