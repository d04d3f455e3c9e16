import NIOCore
import ProbeResults
import ProbeScript

/// The proxy steps of a scenario, or of one copy of a `parallel` block: `proxy NAME FRONT to
/// BACK`, the faults on a proxy, and the watch that `NAME: expect upstream|downstream` reads.
/// It owns the proxies it opened. Touched on the run's loop only.
final class ProxySteps {
    /// The proxies opened, by name.
    private(set) var proxies: [String: ProbeProxy] = [:]
    private unowned let context: any StepContext
    private let connections: ConnectionTable
    /// Adds a port to those the run's capture watches.
    private let watchPort: (Int, Statement) throws -> Void
    /// Tells the capture a connection between two ports is the run's own.
    private let claim: @Sendable (Int?, Int?) -> Void

    init(context: any StepContext, connections: ConnectionTable, watchPort: @escaping (Int, Statement) throws -> Void,
         claim: @escaping @Sendable (Int?, Int?) -> Void) {
        self.context = context
        self.connections = connections
        self.watchPort = watchPort
        self.claim = claim
    }

    /// Runs `statement`: `proxy NAME FRONT to BACK` or a fault on a proxy.
    func run(_ statement: Statement) async throws {
        switch statement.kind {
        case .proxy(let name, let front, let back): try await open(name, front: front, back: back, statement)
        case .proxyFault(let fault): try await self.fault(fault, statement)
        default: preconditionFailure("not a proxy step: \(statement.text)")
        }
    }

    var isEmpty: Bool { proxies.isEmpty }

    /// The proxies in name order.
    var all: [ProbeProxy] { proxies.keys.sorted().map { proxies[$0]! } }

    func proxy(named name: String) -> ProbeProxy? { proxies[name] }

    /// Listens on FRONT (`{NAME.port}`) and joins each client to a new connection to BACK.
    private func open(_ name: Name, front: Argument<Address>, back: Argument<Address>, _ statement: Statement) async throws {
        let frontAddress = try context.resolve(front, "an address HOST:PORT", Address.parse)
        let backAddress = try context.resolve(back, "an address HOST:PORT", Address.parse)
        guard proxies[name.text] == nil, !connections.hasListener(named: name.text) else {
            throw StepFailure(statement, CommonFailure.nameTaken(what: "proxy or listener", name: name.text, state: "open"))
        }
        let proxy = ProbeProxy(name: name.text, back: (backAddress.host, backAddress.port), seed: context.seed &+ UInt64(proxies.count + 1),
                               joined: claim)
        if frontAddress.port != 0 { try watchPort(frontAddress.port, statement) }
        try watchPort(backAddress.port, statement)
        do {
            try await proxy.bind(host: frontAddress.host, port: frontAddress.port, group: context.loop)
        } catch {
            throw StepFailure.cannotListen(on: frontAddress, error, statement)
        }
        let port = proxy.port ?? frontAddress.port
        if frontAddress.port == 0 { try watchPort(port, statement) }
        proxies[proxy.name] = proxy
        context.define("\(name.text).port", as: String(port))
        context.record(statement, "proxy '\(name.text)': listening on \(Address(host: frontAddress.host, port: port)), forwarding to \(backAddress)")
    }

    /// The proxy a `NAME:` or `NAME.N:` prefix names, and N.
    private func namedProxy(_ statement: Statement, _ keyword: String) throws -> (ProbeProxy, link: Int?) {
        guard let name = statement.connection?.text else {
            throw StepFailure(statement, ProxyFailure.unnamed(keyword: keyword))
        }
        guard let proxy = proxies[name] else {
            throw StepFailure(statement, CommonFailure.unknown(what: "proxy", name: name, known: proxies.keys.sorted(), none: "none is open", listed: "open"))
        }
        return (proxy, statement.linkNumber)
    }

    private func fault(_ fault: ProxyFault, _ statement: Statement) async throws {
        let step = statement.step
        let (proxy, link) = try namedProxy(statement, String(statement.keyword))
        if link != nil { throw StepFailure(statement, ProxyFailure.faultOnOneLink(proxy: proxy.name)) }
        let direction = fault.direction
        let action: ProxyAction
        do {
            action = try ProxyAction(fault, context)
        } catch let reason as ProxyFailure {
            throw StepFailure(statement, reason)
        }
        await proxy.perform(action, direction)
        switch action {
        case .cut, .reset:
            context.record(statement, "proxy '\(proxy.name)': \(action == .cut ? "cut (FIN)" : "reset (RST)") \(Self.describe(direction)), \(Self.count(proxy.all.count))")
        case .change:
            context.record(statement, "proxy '\(proxy.name)': \(step) from now on, \(Self.count(proxy.all.count))")
        }
    }

    private static func describe(_ direction: ProxyDirection?) -> String {
        direction.map { "\($0.rawValue) only" } ?? "both ways"
    }

    private static func count(_ links: Int) -> String {
        links == 1 ? "1 connection open" : "\(links) connections open"
    }

    /// What `NAME: expect upstream|downstream …` reads: the latest connection of the proxy, or
    /// its Nth with `NAME.N:`, waiting for it as long as the expect may wait (a client spawned
    /// just before takes a moment to connect).
    func watch(_ direction: ProxyDirection, within: Argument<Duration>?, _ statement: Statement) async throws -> ProxyWatch {
        let (proxy, number) = try namedProxy(statement, "expect \(direction.rawValue)")
        let (wait, _) = context.limit(try within.map { try context.resolve($0, "a duration", Quantity.duration) } ?? context.settings.timeout)
        let giveUp = context.clock.now + wait
        while true {
            if let link = proxy.link(number) { return ProxyWatch(proxy: proxy.name, link: link, direction: direction) }
            guard context.clock.now < giveUp else { break }
            try await context.pause(for: .milliseconds(2))
        }
        throw StepFailure(statement, number.map { ProxyFailure.noSuchLink(proxy: proxy.name, number: $0, open: proxy.all.count, waited: wait) }
            ?? ProxyFailure.noClient(proxy: proxy.name, waited: wait))
    }

    /// Closes every proxy, and with it its connections.
    func closeAll() async {
        for proxy in proxies.values { await proxy.close() }
    }

    /// The legs of every connection of every proxy, in name order, for the report's ladder.
    var legs: [ProxyLegPorts] {
        all.flatMap { proxy in
            proxy.all.flatMap { link in
                [(WireEvent.ProxyLeg.front, link.frontPorts), (.back, link.backPorts)].compactMap { leg, ports in
                    guard let proxyPort = ports.local, let otherPort = ports.remote else { return nil }
                    return ProxyLegPorts(label: "proxy '\(proxy.name)' connection \(link.number)", leg: leg, proxyPort: proxyPort, otherPort: otherPort)
                }
            }
        }
    }

    /// What went wrong inside the proxies, for the report's notes.
    var problems: [String] {
        all.flatMap { proxy in proxy.problems.map { "proxy '\(proxy.name)': \($0)" } }
    }
}
