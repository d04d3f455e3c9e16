/// `connect [NAME] ADDR [from SOURCE] [tls OPTIONS] [timeout D] [rcvbuf SIZE] [sndbuf SIZE] [expect refused|timeout|tls-failure]`.
package struct ConnectStep: Sendable, Hashable {
    package enum Failure: String, Sendable, Hashable, CaseIterable {
        case refused, timeout
        case tlsFailure = "tls-failure"
    }

    package var name: Name?
    package var address: Argument<Address>
    package var timeout: Argument<Duration>?
    package var receiveBuffer: Argument<Int>?
    package var sendBuffer: Argument<Int>?
    package var expectedFailure: Failure?
    /// `from ADDR[:PORT]` or `from NETWORK/PREFIX`: the source address to bind.
    package var source: Argument<SourceAddress>?
    /// `tls …`: the connection speaks TLS from its first byte; the handshake is part of the step.
    package var tls: TLSOptions?
    /// `ws://…` or `wss://…`: the connection upgrades to WebSocket as part of the step.
    package var webSocket: WebSocketTarget?
    /// `h2://…` or `h2s://…`: the connection speaks HTTP/2; the handshake is part of the step.
    package var http2: HTTP2Target?

    package init(name: Name?, address: Argument<Address>, timeout: Argument<Duration>? = nil,
                receiveBuffer: Argument<Int>? = nil, sendBuffer: Argument<Int>? = nil, expectedFailure: Failure? = nil) {
        self.name = name
        self.address = address
        self.timeout = timeout
        self.receiveBuffer = receiveBuffer
        self.sendBuffer = sendBuffer
        self.expectedFailure = expectedFailure
    }
}
