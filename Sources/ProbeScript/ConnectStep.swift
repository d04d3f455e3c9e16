/// `connect [NAME] ADDR [from SOURCE] [tls OPTIONS] [timeout D] [rcvbuf SIZE] [sndbuf SIZE] [expect refused|timeout|tls-failure]`.
public struct ConnectStep: Sendable, Hashable {
    public enum Failure: String, Sendable, Hashable, CaseIterable {
        case refused, timeout
        case tlsFailure = "tls-failure"
    }

    public var name: Name?
    public var address: Argument<Address>
    public var timeout: Argument<Duration>?
    public var receiveBuffer: Argument<Int>?
    public var sendBuffer: Argument<Int>?
    public var expectedFailure: Failure?
    /// `from ADDR[:PORT]` or `from NETWORK/PREFIX`: the source address to bind.
    public var source: Argument<SourceAddress>?
    /// `tls …`: the connection speaks TLS from its first byte; the handshake is part of the step.
    public var tls: TLSOptions?
    /// `ws://…` or `wss://…`: the connection upgrades to WebSocket as part of the step.
    public var webSocket: WebSocketTarget?

    public init(name: Name?, address: Argument<Address>, timeout: Argument<Duration>? = nil,
                receiveBuffer: Argument<Int>? = nil, sendBuffer: Argument<Int>? = nil, expectedFailure: Failure? = nil) {
        self.name = name
        self.address = address
        self.timeout = timeout
        self.receiveBuffer = receiveBuffer
        self.sendBuffer = sendBuffer
        self.expectedFailure = expectedFailure
    }
}
