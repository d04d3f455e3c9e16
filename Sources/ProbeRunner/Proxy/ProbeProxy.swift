import NIOCore
import NIOPosix
import ProbeCapture
import ProbeScript
import Synchronization

/// `proxy NAME FRONT to BACK`: listens on FRONT and joins each client to a new connection to
/// BACK, forwarding both ways through the faults its steps set. A fault applies to the links
/// open now and to later ones; `cut` and `reset` also close the later ones as they come.
/// Links come and go from their loops through `state`'s Mutex.
final class ProbeProxy: Sendable {

    let name: String
    let back: (host: String, port: Int)
    private let listening = Mutex<Channel?>(nil)
    private let seed: UInt64
    /// Its links and the faults later links start with.
    private struct State {
        var links: [ProxyLink] = []
        var upstream = ProxyFaults()
        var downstream = ProxyFaults()
        /// A `cut` or `reset` without a `clear` since: later clients get it at once.
        var standing: (action: ProxyAction, direction: ProxyDirection?)?
        var problems: [String] = []
    }
    private let state = Mutex(State())
    /// Told of each link once both its legs have closed, and of each back connection that failed.
    let report: (@Sendable (String) -> Void)?
    /// Given each link's conversation once both its legs have closed: a recording proxy.
    let recorded: (@Sendable (CapturedConversation, Int) -> Void)?
    /// Told the two ports of each leg once a link is joined, for the scenario's capture to claim.
    let joined: (@Sendable (_ local: Int?, _ remote: Int?) -> Void)?

    init(name: String, back: (host: String, port: Int), seed: UInt64, report: (@Sendable (String) -> Void)? = nil,
         recorded: (@Sendable (CapturedConversation, Int) -> Void)? = nil, joined: (@Sendable (_ local: Int?, _ remote: Int?) -> Void)? = nil) {
        self.name = name
        self.back = back
        self.seed = seed
        self.report = report
        self.recorded = recorded
        self.joined = joined
    }

    /// The listening channel, once bound.
    var channel: Channel? { listening.withLock { $0 } }

    var port: Int? { channel?.localAddress?.port }

    func bind(host: String, port: Int, group: EventLoopGroup) async throws {
        let bound = try await ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { [self] front in
                let link = state.withLock { state -> ProxyLink in
                    let link = ProxyLink(number: state.links.count + 1, front: front, upstream: state.upstream, downstream: state.downstream,
                                         seed: seed &+ UInt64(state.links.count) &* 2)
                    state.links.append(link)
                    return link
                }
                return front.eventLoop.makeCompletedFuture {
                    try front.pipeline.syncOperations.addHandler(link.upstream)
                }.flatMap { [self] in
                    link.join(back.host, back.port).map { [self] in
                        joined?(link.frontPorts.local, link.frontPorts.remote)
                        joined?(link.backPorts.local, link.backPorts.remote)
                        if recorded != nil { link.record(server: Address(host: back.host, port: back.port)) }
                        if let standing = state.withLock({ $0.standing }) { act(standing.action, standing.direction, on: link) }
                        if let backLeg = link.back, report != nil || recorded != nil {
                            link.front.closeFuture.and(backLeg.closeFuture).whenComplete { [self] _ in
                                report?(link.summary)
                                if let recording = link.recording { recorded?(recording, link.number) }
                            }
                        }
                    }.flatMapErrorThrowing { [self] error in
                        let problem = "connection \(link.number): could not reach \(back.host):\(back.port): \(error)"
                        state.withLock { $0.problems.append(problem) }
                        report?(problem)
                    }
                }
            }
            .bind(host: host, port: port).get()
        listening.withLock { $0 = bound }
    }

    /// Its links so far, in accept order.
    var all: [ProxyLink] { state.withLock { $0.links } }

    /// Why back connections failed, for the scenario's notes.
    var problems: [String] { state.withLock { $0.problems } }

    /// Link `number` (from 1), or the latest when nil.
    func link(_ number: Int?) -> ProxyLink? {
        state.withLock { state in
            guard let number else { return state.links.last }
            return number >= 1 && number <= state.links.count ? state.links[number - 1] : nil
        }
    }

    /// Does what a fault step says, on `direction` (both when nil).
    func perform(_ action: ProxyAction, _ direction: ProxyDirection?) async {
        switch action {
        case .change(let change): await apply(change, direction)
        case .cut, .reset: await act(action, direction)
        }
    }

    /// Sets a fault on `direction` (both when nil), for the links open now and later.
    private func apply(_ change: ProxyFaults.Change, _ direction: ProxyDirection?) async {
        let open: [ProxyLink] = state.withLock { state in
            if direction != .downstream { state.upstream.apply(change) }
            if direction != .upstream { state.downstream.apply(change) }
            if case .clear = change { state.standing = nil }
            return state.links
        }
        for link in open {
            try? await link.front.eventLoop.submit {
                for pump in [link.upstream, link.downstream] where direction == nil || pump.direction == direction { pump.apply(change) }
            }.get()
        }
    }

    /// Cuts or resets the links open now, and each later one as it comes.
    private func act(_ action: ProxyAction, _ direction: ProxyDirection?) async {
        let open: [ProxyLink] = state.withLock { state in
            state.standing = (action, direction)
            return state.links
        }
        for link in open {
            try? await link.front.eventLoop.submit { [self] in act(action, direction, on: link) }.get()
        }
    }

    private func act(_ action: ProxyAction, _ direction: ProxyDirection?, on link: ProxyLink) {
        switch action {
        case .cut: link.cut(direction)
        case .reset: link.reset(direction)
        case .change: break
        }
    }

    /// Stops listening and closes every link.
    func close() async {
        try? await channel?.close().get()
        for link in all {
            try? await link.front.eventLoop.submit { link.cut(nil) }.get()
        }
    }
}
