#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import NIOCore
import NIOPosix
import ProbeCapture
import ProbeScript
import Synchronization

/// One client of a proxy joined to its own connection to the back address: the front leg (the
/// client's connection to the proxy), the back leg (the proxy's to the server), and a pump each
/// way. Both legs live on one event loop; what the steps read of the back leg and the
/// recording is in `joined`'s Mutex.
final class ProxyLink: Sendable {
    /// Its number in accept order, from 1.
    let number: Int
    let front: Channel
    /// Client → server, reading the front leg.
    let upstream: ProxyPump
    /// Server → client, reading the back leg.
    let downstream: ProxyPump
    /// The ports of each leg, kept from the start: a closed channel no longer knows them.
    let frontPorts: (local: Int?, remote: Int?)
    private struct Joined {
        var back: Channel?
        var backPorts: (local: Int?, remote: Int?) = (nil, nil)
        var recording: CapturedConversation?
    }
    private let joined = Mutex(Joined())
    private let opened = NIODeadline.now()
    /// The client's address, as `tcpprobe proxy` prints it.
    private let client: String

    init(number: Int, front: Channel, upstream: ProxyFaults, downstream: ProxyFaults, seed: UInt64) {
        self.number = number
        self.front = front
        frontPorts = (front.localAddress?.port, front.remoteAddress?.port)
        client = front.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "?"
        self.upstream = ProxyPump(direction: .upstream, faults: upstream, seed: seed)
        self.downstream = ProxyPump(direction: .downstream, faults: downstream, seed: seed &+ 1)
        self.upstream.onCutAfter = { [unowned self] in cut(nil) }
        self.downstream.onCutAfter = { [unowned self] in cut(nil) }
        self.upstream.onWritable = { [unowned self] in self.downstream.requestRead() }
        self.downstream.onWritable = { [unowned self] in self.upstream.requestRead() }
    }

    func pump(_ direction: ProxyDirection) -> ProxyPump { direction == .upstream ? upstream : downstream }

    /// The back leg, once connected.
    var back: Channel? { joined.withLock { $0.back } }
    var backPorts: (local: Int?, remote: Int?) { joined.withLock { $0.backPorts } }
    /// What passed both ways, with its times and endings, once `record` began it.
    var recording: CapturedConversation? { joined.withLock { $0.recording } }

    /// Records what passes from now on (both legs up): `tcpprobe record`'s conversation.
    func record(server: Address) {
        let clientAddress = Address.parse(client) ?? Address(host: "?", port: frontPorts.remote ?? 0)
        let conversation = CapturedConversation(client: clientAddress, server: server, startedAt: Date().timeIntervalSince1970)
        joined.withLock { $0.recording = conversation }
        for pump in [upstream, downstream] {
            let fromClient = pump.direction == .upstream
            pump.onRead = { [unowned self] bytes in
                joined.withLock { $0.recording?.add(bytes.readableBytesView, fromClient: fromClient, at: Date().timeIntervalSince1970) }
            }
            pump.onEnd = { [unowned self] end in
                joined.withLock { $0.recording?.end(end == .reset ? .rst : .fin, fromClient: fromClient, at: Date().timeIntervalSince1970) }
            }
        }
    }

    /// Connects the back leg on the front leg's loop, then starts both pumps; a back address
    /// that refuses closes the front leg.
    func join(_ host: String, _ port: Int) -> EventLoopFuture<Void> {
        ClientBootstrap(group: front.eventLoop)
            .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .channelOption(ChannelOptions.autoRead, value: false)
            .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .channelInitializer { [downstream] channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(downstream) }
            }
            .connect(host: host, port: port)
            .map { [self] back in
                let ports = (back.localAddress?.port, back.remoteAddress?.port)
                joined.withLock { $0.back = back; $0.backPorts = ports }
                upstream.start(target: back)
                downstream.start(target: front)
            }
            .flatMapError { [front] error in
                front.close(promise: nil)
                return front.eventLoop.makeFailedFuture(error)
            }
    }

    /// A line for `tcpprobe proxy` once both legs have closed: who, how much each way, how long.
    var summary: String {
        let seconds = Double((NIODeadline.now() - opened).nanoseconds) / 1e9
        return "connection \(number): \(client), \(upstream.forwarded) bytes upstream, \(downstream.forwarded) downstream, "
            + DurationFormat.fixed(seconds, places: 3) + " s"
    }

    /// The legs `direction` writes to: upstream the back leg, downstream the front; nil both.
    private func legs(_ direction: ProxyDirection?) -> [Channel] {
        switch direction {
        case .upstream?: return back.map { [$0] } ?? []
        case .downstream?: return [front]
        case nil: return [front] + (back.map { [$0] } ?? [])
        }
    }

    /// Closes the legs (FIN), as `close` does.
    func cut(_ direction: ProxyDirection?) {
        for leg in legs(direction) { leg.close(promise: nil) }
    }

    /// Aborts the legs (RST). The pumps that write to them stop first: one leg's end must not
    /// pass a FIN to the other before its own RST.
    func reset(_ direction: ProxyDirection?) {
        for pump in [upstream, downstream] where direction == nil || pump.direction == direction { pump.stop() }
        for leg in legs(direction) { Self.abort(leg) }
    }

    /// SO_LINGER 0, then close: the kernel sends RST.
    static func abort(_ channel: Channel) {
        (channel as? SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
    }
}
