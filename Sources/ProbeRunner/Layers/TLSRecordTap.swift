import NIOCore
import ProbeCapture
import Synchronization

/// Sits below the TLS layer and reads the records going each way: it counts them, keeps the
/// server's hello (version and cipher suite, which BoringSSL does not tell), and keeps the
/// first bytes the peer sent, to show what a peer that does not speak TLS answered.
/// All state is touched on the channel's event loop only.
/// Lives on its channel's event loop, where NIO calls its handlers.
final class TLSRecordTap: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let serverSide: Bool
    private var inbound = TLSRecordReader(keeping: [.handshake, .alert])
    private var outbound = TLSRecordReader(keeping: [.handshake])
    private var serverHandshake: [UInt8] = []
    private(set) var serverHello: ServerHello?
    /// The peer's first bytes (at most 32).
    private(set) var firstPeerBytes: [UInt8] = []
    /// The last alert the peer sent in the clear (during the handshake, before its keys are
    /// in use: a TLS 1.3 client refusing the server's certificate), which BoringSSL cannot read.
    private(set) var plainAlertFromPeer: UInt8?
    /// How many whole records the peer sent.
    private(set) var recordsReceived = 0
    private let applicationRecords = Atomic<Int>(0)

    /// Application data records sent so far; read from any thread (a send step's log).
    var applicationRecordsSent: Int { applicationRecords.load(ordering: .relaxed) }

    /// `serverSide`: the probe is the TLS server (its own hello goes out).
    init(serverSide: Bool) {
        self.serverSide = serverSide
    }

    private var context: ChannelHandlerContext?

    var peerSpeaksTLS: Bool { !inbound.notTLS }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    /// While true, a full close coming down from the TLS layer leaves TCP open both ways.
    private var keepsTCPOpen = false

    /// Runs `body`, in which the TLS layer answers the peer's close_notify with its own and
    /// then closes the channel: the tap keeps TCP open both ways, so the peer's FIN can still
    /// be read (`expect eof`) and the probe's own ending comes from the scenario, as over
    /// plain TCP: `close` and `shutdown write` send FIN, `abort` a RST.
    func keepingTCPOpen(_ body: () -> Void) {
        keepsTCPOpen = true
        body()
        keepsTCPOpen = false
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard keepsTCPOpen, mode == .all else { return context.close(mode: mode, promise: promise) }
        promise?.succeed()
    }

    /// Closes the socket from below the TLS layer, sending no close_notify (`abort`).
    func closeBelowTLS() -> EventLoopFuture<Void>? {
        guard let context else { return nil }
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.close(promise: promise)
        return promise.futureResult
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        if firstPeerBytes.count < 32 { firstPeerBytes += bytes.readableBytesView.prefix(32 - firstPeerBytes.count) }
        for record in inbound.feed(bytes.readableBytesView) {
            recordsReceived += 1
            if record.contentType == .alert, record.fragment.count == 2 { plainAlertFromPeer = record.fragment[1] }
            if !serverSide { noteServerRecord(record) }
        }
        if !serverSide, serverHello != nil { inbound.keeping = [.alert] }
        context.fireChannelRead(data)
    }

    /// The TCP FIN: the TLS layer above takes it (after close_notify it says nothing more), so
    /// the tap tells the handlers above it that TCP itself closed, after the TLS layer had it.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        context.fireUserInboundEventTriggered(event)
        if case ChannelEvent.inputClosed = event { context.fireUserInboundEventTriggered(TCPInputClosed()) }
    }

    /// The peer's FIN reached the socket.
    struct TCPInputClosed {}

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let bytes = unwrapOutboundIn(data)
        for record in outbound.feed(bytes.readableBytesView) {
            if record.contentType == .applicationData { applicationRecords.add(1, ordering: .relaxed) }
            if serverSide { noteServerRecord(record) }
        }
        if serverSide, serverHello != nil { outbound.keeping = [] }
        context.write(data, promise: promise)
    }

    private func noteServerRecord(_ record: TLSRecordReader.Record) {
        guard serverHello == nil, record.contentType == .handshake, serverHandshake.count < 65_536 else { return }
        serverHandshake += record.fragment
        serverHello = ServerHello(handshake: serverHandshake)
        if serverHello != nil { serverHandshake = [] }
    }
}
