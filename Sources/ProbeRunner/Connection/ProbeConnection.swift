import NIOCore
import NIOPosix
import ProbeScript
import Synchronization

/// One TCP connection of a scenario, opened by `connect` or `accept`.
final class ProbeConnection: Sendable {
    /// The scenario's name for it: `a`, or `#1` for an unnamed one.
    let name: String
    let channel: Channel
    /// Its reader and expect queue, which lives on the channel's loop.
    private let boundHandler: NIOLoopBound<InboundHandler>
    /// Its reader and expect queue: on the channel's loop only.
    var handler: InboundHandler { boundHandler.value }

    /// What its steps and its reader set and read, from the channel's loop, the scenario's task
    /// or a send's callbacks: behind one Mutex.
    private struct State {
        var closedAt: SourceLocation?
        var isClosed = false
        var outputClosed = false
        var bytesSent = 0
        var tls: TLSSession?
        var webSocket: WebSocketSession?
        var http2: NIOLoopBound<HTTP2Session>?
        var cutOffSend: String?
    }
    private let state = Mutex(State())

    /// Where the probe closed it, for "connection is closed" messages.
    var closedAt: SourceLocation? { state.withLock { $0.closedAt } }
    /// True once the probe closed or aborted it.
    var isClosed: Bool { state.withLock { $0.isClosed } }
    var outputClosed: Bool { state.withLock { $0.outputClosed } }
    var bytesSent: Int { state.withLock { $0.bytesSent } }

    /// Counts `count` bytes the socket took.
    func countSent(_ count: Int) { state.withLock { $0.bytesSent += count } }

    /// `countSent` for a layer that writes on its own (an ACK, a pong), without keeping the
    /// connection alive: the layer lives in the connection's state.
    var sentCounter: @Sendable (Int) -> Void { { [weak self] in self?.countSent($0) } }

    /// Where the framing in force took effect (`set framing`), for the wire checks of messages:
    /// they cut the stream from there. Over TLS they read the plaintext sent before the
    /// handshake and then the decrypted records, so the bytes the reader had taken and handed
    /// to TLS as it began (`toTLS`) are in neither, and are not counted. Set on the channel's loop.
    private let marks = Mutex((framing: StreamPosition(), toTLS: 0))

    /// Notes where the streams stand now as where the framing starts; on the channel's loop,
    /// before any later step's reads.
    func markFramingStart() {
        let loop = channel.eventLoop
        guard loop.inEventLoop else { return loop.execute { self.markFramingStart() } }
        let position = streamPosition
        marks.withLock { $0.framing = StreamPosition(sent: position.sent, received: position.received - $0.toTLS) }
    }

    /// Notes, as the TLS layer goes in, the bytes the reader took and no expect consumed: they go
    /// to TLS, and are no part of the decrypted stream. On the channel's loop.
    func markTLSStart() {
        let handedOver = handler.unconsumedBytes
        marks.withLock { $0.toTLS = handedOver }
    }

    /// How many bytes have come from the peer, counted as the wire checks count its stream
    /// (over TLS, the decrypted one); on the channel's loop.
    var receivedAsCaptured: Int {
        handler.recent.total - marks.withLock { $0.toTLS }
    }

    /// What has been sent, and what expects have consumed, so far; on the channel's loop.
    private var streamPosition: StreamPosition {
        StreamPosition(sent: bytesSent, received: handler.recent.total - handler.unconsumedBytes)
    }

    /// Where the framing in force starts in the stream from the peer or from the probe, as the
    /// wire checks read it (over TLS: the plaintext before the handshake, then the records').
    func framingStart(fromPeer: Bool) -> Int {
        marks.withLock { $0.framing }.offset(fromPeer: fromPeer)
    }

    /// The host a `connect` named (a `starttls` client sends it as SNI); nil for an accepted one.
    let connectedHost: String?
    /// Its TLS layer, once a handshake is done (`connect … tls`, `listen … tls`, `starttls`).
    var tls: TLSSession? {
        get { state.withLock { $0.tls } }
        set { state.withLock { $0.tls = newValue } }
    }
    /// Its WebSocket layer, once the upgrade is done (`connect ws://…`, `accept … websocket`).
    var webSocket: WebSocketSession? {
        get { state.withLock { $0.webSocket } }
        set { state.withLock { $0.webSocket = newValue } }
    }
    /// Its HTTP/2 layer (`connect h2://…`), reached on the channel's loop.
    var http2: NIOLoopBound<HTTP2Session>? {
        get { state.withLock { $0.http2 } }
        set { state.withLock { $0.http2 = newValue } }
    }

    /// The ports, kept from the start: a closed channel no longer knows them.
    let localPort: Int?
    let remotePort: Int?

    /// `remotePort` names the peer's port when the channel no longer knows it (it was reset
    /// before the connect completed). Made on the channel's loop.
    init(name: String, channel: Channel, handler: InboundHandler, connectedHost: String?, remotePort: Int? = nil) {
        self.name = name
        self.connectedHost = connectedHost
        self.channel = channel
        self.boundHandler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
        self.localPort = channel.localAddress?.port
        self.remotePort = channel.remoteAddress?.port ?? remotePort
    }

    /// How reports name it.
    var label: String { name.utf8.first == UInt8(ascii: "#") ? "connection " + name : "connection '" + name + "'" }

    /// Where the peer's close cut off a send (`max-line.scn:7 (after 10 of 10 bytes)`): the
    /// next send fails, naming it.
    var cutOffSend: String? {
        get { state.withLock { $0.cutOffSend } }
        set { state.withLock { $0.cutOffSend = newValue } }
    }

    /// Whether the peer has closed the connection (FIN, RST), as far as the probe has read.
    var peerHasClosed: Bool { handler.peerHasClosed }

    /// Socket options every probe connection gets: no Nagle delay (each write leaves as its own
    /// segment), reads under the handler's control, and the peer's FIN seen as a half-close.
    static func configure<Bootstrap: NIOClientTCPBootstrapProtocol>(_ bootstrap: Bootstrap) -> Bootstrap {
        bootstrap
            .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(ChannelOptions.autoRead, value: false)
            .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
    }

    var eventLoop: EventLoop { channel.eventLoop }

    func expect(_ waiting: sending WaitingExpect, timeout: TimeAmount) {
        let loop = channel.eventLoop
        guard loop.inEventLoop else {
            let sent = NIOLoopBoundBox.makeBoxSendingValue(waiting, eventLoop: loop)
            return loop.execute { self.handler.expect(sent.value, timeout: timeout, on: loop) }
        }
        handler.expect(waiting, timeout: timeout, on: loop)
    }

    /// Writes and flushes `bytes`: true once written, false when the write did not complete
    /// within `timeout` (the peer is not reading and the socket buffers are full).
    func send(_ bytes: ByteBuffer, timeout: Duration) -> EventLoopFuture<Bool> {
        let promise = channel.eventLoop.makePromise(of: Bool.self)
        send(bytes, timeout: timeout) { promise.completeWith($0) }
        return promise.futureResult
    }

    /// Writes and flushes `bytes`, then calls `written`, on the channel's loop, once: with true
    /// once written, false when the write did not complete within `timeout`, or the write's error.
    func send(_ bytes: ByteBuffer, timeout: Duration, written: @escaping @Sendable (Result<Bool, Error>) -> Void) {
        send(bytes, timeout: timeout, to: WrittenCallback(call: written))
    }

    /// Writes and flushes `bytes`, then tells `end`, on the channel's loop, once: true once
    /// written, false when the write did not complete within `timeout`, or the write's error.
    /// The timeout stays a `Duration` until a write still pending needs its timer: the
    /// conversion divides 128-bit numbers, and most writes complete at once.
    func send<End: WriteEnd>(_ bytes: ByteBuffer, timeout: Duration, to end: consuming End) {
        let loop = channel.eventLoop
        guard loop.inEventLoop else { return loop.execute { [end = copy end] in self.send(bytes, timeout: timeout, to: end) } }
        // On the channel's loop (where scenarios run) a write the socket takes at once completes
        // inside writeAndFlush; only a write still pending afterwards needs a timeout timer.
        let write = TimedWrite(bytes.readableBytes, on: self, end)
        let promise = loop.makePromise(of: Void.self)
        // On the loop, as the guard above made sure: not checked again.
        promise.futureResult.assumeIsolatedUnsafeUnchecked().whenComplete { write.complete($0) }
        handler.writeAndFlush(bytes, promise: promise)
        write.armTimeout(timeout, on: loop)
    }

    /// Graceful close: FIN (over TLS close_notify and FIN, without waiting for the peer's
    /// close_notify), then release. It completes, never fails, on the channel's loop.
    @discardableResult
    func close(at location: SourceLocation?) -> EventLoopFuture<Void> {
        state.withLock { $0.closedAt = location; $0.isClosed = true }
        let handler = boundHandler
        let channel = self.channel
        let loop = channel.eventLoop
        let session = tls
        return loop.onLoop { () -> EventLoopFuture<Void> in
            handler.value.markClosedByProbe()
            guard let session else { return channel.close() }
            return channel.close(mode: .output).flatMapError { _ in loop.makeSucceededVoidFuture() }.flatMap {
                session.tap.closeBelowTLS() ?? channel.close()
            }
        }.flatMapError { _ in loop.makeSucceededVoidFuture() }
    }

    /// Half-close: FIN, and keep reading.
    func shutdownWrite() async throws {
        state.withLock { $0.outputClosed = true }
        try await channel.close(mode: .output).get()
    }

    /// Reset: SO_LINGER 0, then close, so the kernel sends RST (under a TLS layer, which would
    /// send close_notify first).
    func abort(at location: SourceLocation) async throws {
        state.withLock { $0.closedAt = location; $0.isClosed = true }
        let provider = channel as! SocketOptionProvider
        try await provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        let handler = boundHandler
        let session = tls
        let channel = self.channel
        try? await channel.eventLoop.submit { handler.value.markClosedByProbe() }.flatMap { _ in
            session?.tap.closeBelowTLS() ?? channel.close()
        }.get()
    }

    /// Stops or resumes draining the socket.
    func setPaused(_ paused: Bool) async throws {
        try await onLoop { $0.setPaused(paused) }
    }

    /// Runs `body` on the event loop with the handler, and returns its result.
    func onLoop<Result: Sendable>(_ body: @escaping @Sendable (InboundHandler) throws -> Result) async throws -> Result {
        let handler = boundHandler
        return try await channel.eventLoop.submit { try body(handler.value) }.get()
    }

    /// The last bytes received, for failure reports.
    func recentBytes() async -> (bytes: [UInt8], total: Int) {
        (try? await onLoop { ($0.recent.bytes, $0.recent.total) }) ?? ([], 0)
    }
}
