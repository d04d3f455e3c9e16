import NIOCore
import ProbeHost
import ProbeResults
import ProbeScript

/// The proxy executors: `proxy NAME FRONT to BACK`, its faults, and the expects that watch it.
extension ScenarioExecution {
    /// Listens on FRONT (`{NAME.port}`) and joins each client to a new connection to BACK.
    func proxy(_ name: Name, front: Argument<Address>, back: Argument<Address>, _ statement: Statement) async throws {
        let frontAddress = try resolve(front, "an address HOST:PORT", Address.parse)
        let backAddress = try resolve(back, "an address HOST:PORT", Address.parse)
        guard table.proxy(named: name.text) == nil, table.listener(named: name.text) == nil else {
            throw failure(statement, "a proxy or listener named '\(name.text)' is already open")
        }
        let proxy = ProbeProxy(name: name.text, back: (backAddress.host, backAddress.port), seed: seed &+ UInt64(table.proxies.count + 1))
        let wire = self.wire
        proxy.joined = { wire.claim(probePort: $0, peerPort: $1) }
        if frontAddress.port != 0 { try wire.watch(port: frontAddress.port, statement) }
        try wire.watch(port: backAddress.port, statement)
        do {
            try await proxy.bind(host: frontAddress.host, port: frontAddress.port, group: loop)
        } catch {
            let holders = frontAddress.port == 0 ? nil : PortHolders.describe(port: frontAddress.port)
            throw StepFailure(.environment, at: statement.location, step: statement.text,
                              message: "cannot listen on \(frontAddress): \(Self.reason(error))" + (holders.map { "\n" + $0 } ?? ""))
        }
        let port = proxy.port ?? frontAddress.port
        if frontAddress.port == 0 { try wire.watch(port: port, statement) }
        table.add(proxy)
        variables["\(name.text).port"] = String(port)
        record(statement, "proxy '\(name.text)': listening on \(Address(host: frontAddress.host, port: port)), forwarding to \(backAddress)")
    }

    /// The proxy a `NAME:` or `NAME.N:` prefix names, and N.
    private func namedProxy(_ statement: Statement, _ keyword: String) throws -> (ProbeProxy, link: Int?) {
        guard let prefix = statement.connection?.text else {
            throw failure(statement, "'\(keyword)' acts on a proxy: name it, as in 'p: \(keyword) …'")
        }
        let parts = prefix.split(separator: ".", maxSplits: 1)
        guard let proxy = table.proxy(named: String(parts[0])) else {
            let open = table.proxies.keys.sorted()
            throw failure(statement, "no proxy named '\(parts[0])' (\(open.isEmpty ? "none is open" : "open: " + open.joined(separator: ", ")))")
        }
        return (proxy, parts.count == 2 ? Int(parts[1]) : nil)
    }

    func proxyFault(_ fault: ProxyFault, _ statement: Statement) async throws {
        // The step as written, without its `NAME:` prefix: "delay 50ms downstream".
        let step = statement.connection == nil ? statement.text : String(statement.text.split(separator: " ", maxSplits: 1).last ?? "")
        let (proxy, link) = try namedProxy(statement, String(step.split(separator: " ").first ?? ""))
        if link != nil { throw failure(statement, "a fault applies to every connection of proxy '\(proxy.name)': name the proxy alone") }
        let direction = fault.direction
        let action: ProxyAction
        do {
            action = try ProxyAction(fault, self)
        } catch let error as ProxyAction.Invalid {
            throw failure(statement, error.description)
        }
        await proxy.perform(action, direction)
        switch action {
        case .cut, .reset:
            record(statement, "proxy '\(proxy.name)': \(action == .cut ? "cut (FIN)" : "reset (RST)") \(Self.describe(direction)), \(Self.count(proxy.all.count))")
        case .change:
            record(statement, "proxy '\(proxy.name)': \(step) from now on, \(Self.count(proxy.all.count))")
        }
    }

    private static func describe(_ direction: ProxyDirection?) -> String {
        direction.map { "\($0.rawValue) only" } ?? "both ways"
    }

    private static func count(_ links: Int) -> String {
        links == 1 ? "1 connection open" : "\(links) connections open"
    }

    /// `NAME: expect upstream|downstream …`; a failure says when the watch had dropped bytes
    /// no expect read, which the expect may have needed.
    func expect(_ expectation: Expectation, within: Argument<Duration>?, watching watch: ProxyWatch, _ statement: Statement) async throws {
        do {
            try await awaitStep { try self.expect(expectation, within: within, on: watch, statement, done: $0) }
        } catch var failure as StepFailure {
            let dropped = await watch.droppedUnread()
            if dropped > 0 {
                failure.message += "\n(the watch dropped the oldest \(dropped) bytes no expect had read: it keeps \(InboundHandler.watchLimit / 1024) KiB a direction)"
            }
            throw failure
        }
    }

    /// What `NAME: expect upstream|downstream …` reads: the latest connection of the proxy, or
    /// its Nth with `NAME.N:`, waiting for it as long as the expect may wait (a client spawned
    /// just before takes a moment to connect).
    func proxyWatch(_ direction: ProxyDirection, within: Argument<Duration>?, _ statement: Statement) async throws -> ProxyWatch {
        let (proxy, number) = try namedProxy(statement, "expect \(direction.rawValue)")
        let (wait, _) = limit(try within.map { try resolve($0, "a duration", Quantity.duration) } ?? settings.timeout)
        let giveUp = clock.now + wait
        while true {
            if let link = proxy.link(number) { return ProxyWatch(proxy: proxy.name, link: link, direction: direction) }
            guard clock.now < giveUp else { break }
            try await pause(for: .milliseconds(2))
        }
        let links = proxy.all.count
        throw failure(statement, number.map { "proxy '\(proxy.name)' has no connection \($0) (\(Self.count(links)) after \(format(wait)))" }
            ?? "no client connected to proxy '\(proxy.name)' within \(format(wait))")
    }
}
