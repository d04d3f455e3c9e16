import NIOCore
import ProbeResults
import ProbeScript

/// The `listen` and `accept` executors: the probe as the server for clients under test.
extension ScenarioExecution {
    /// Sets `{NAME.port}`, and with TLS `{NAME.cert}`, the certificate's PEM file.
    func listen(_ name: Name, _ address: Argument<Address>, tls written: TLSOptions?, _ statement: Statement) async throws {
        var options = written ?? self.options.defaultTLS?.server
        // Under `--tls`, a listener whose connections an `accept … http2` takes offers ALPN h2,
        // as `connect h2s://` asks for it: a client speaks HTTP/2 over TLS only when agreed so.
        if written == nil, options?.applicationProtocols.isEmpty == true, acceptsHTTP2(on: name) {
            options?.applicationProtocols = [Template.word("h2", at: address.location)]
        }
        let resolved = try resolve(address, "an address HOST:PORT", Address.parse)
        guard table.listener(named: name.text) == nil else { throw StepFailure(statement, CommonFailure.nameTaken(what: "listener", name: name.text, state: "open")) }
        let listener = ProbeListener(name: name.text)
        if resolved.port != 0 { try wire.watch(port: resolved.port, statement) }
        let tls = try options.map { try tlsSteps.tlsContext($0, role: .server, host: nil, writesCertificate: true, statement) }
        listener.ownedFile = tls?.runtimeCertificatePath
        var makeSession: (@Sendable (Channel) throws -> TLSSession)?
        if let tls {
            makeSession = { @Sendable channel in try tls.setup.makeSession(tls.context, on: channel.eventLoop) }
        }
        if let options {
            variables["\(name.text).cert"] = tls?.runtimeCertificatePath ?? tlsSteps.file(options.certificate!, statement)
        }
        do {
            // A port free-port picked is still held bound on 127.0.0.1: the listener takes that socket.
            let held = resolved.host == "127.0.0.1" ? run.heldPorts.take(resolved.port) : nil
            try await listener.bind(host: resolved.host, port: resolved.port, boundSocket: held, group: loop, captureHold: wire.hold, tls: makeSession)
        } catch {
            throw StepFailure.cannotListen(on: resolved, error, statement)
        }
        if resolved.port == 0, let port = listener.port { try wire.watch(port: port, statement) }
        table.add(listener)
        variables["\(name.text).port"] = String(listener.port ?? resolved.port)
        let certificate = variables["\(name.text).cert"].map { ", TLS with the certificate \($0)" } ?? ""
        record(statement, "listening on \(Address(host: resolved.host, port: listener.port ?? resolved.port))\(certificate)")
    }

    /// Whether the scenario takes an HTTP/2 connection from the listener `name` (`accept … on NAME … http2`).
    private func acceptsHTTP2(on name: Name) -> Bool {
        scenario.containsStatement { statement in
            if case .accept(_, let listener, _, _, .http2?) = statement.kind { return listener.text == name.text }
            return false
        }
    }

    func accept(_ name: Name, on listenerName: Name, within: Argument<Duration>?, expectTLSFailure: Bool, speaking: AcceptedProtocol?,
                _ statement: Statement) async throws {
        guard let listener = table.listener(named: listenerName.text) else {
            throw StepFailure(statement, CommonFailure.unknown(what: "listener", name: listenerName.text, known: table.listeners.keys.sorted(),
                                                               none: "none is open", listed: "open"))
        }
        let requested = try within.map { try resolve($0, "a duration", Quantity.duration) } ?? settings.timeout
        let (wait, byDeadline) = limit(requested)
        let started = clock.now
        guard let accepted = try await listener.next(within: wait.timeAmount, on: loop) else {
            throw StepFailure(statement, ConnectionFailure.noClient(listener: listenerName.text, byDeadline: byDeadline, wait: byDeadline ? settings.deadline : wait),
                              waited: clock.now - started)
        }
        let connection = ProbeConnection(name: name.text, channel: accepted.channel, handler: accepted.handler.value, connectedHost: nil)
        wire.claim(probePort: connection.localPort, peerPort: connection.remotePort)
        table.add(connection)
        let peer = accepted.channel.remoteAddress.map(Self.describe) ?? "?"
        record(statement, "\(connection.label): accepted from \(peer) after \(format(clock.now - started))")
        if let session = accepted.tls {
            try await tlsSteps.finishHandshake(session, on: connection, within: requested, expectFailure: expectTLSFailure, statement)
        } else if expectTLSFailure {
            throw StepFailure(statement, ConnectionFailure.tlsFailureNeedsTLSListener, connection)
        }
        guard let speaking, connection.closedAt == nil else { return }
        switch speaking {
        case .webSocket(let protocols): try await webSocketSteps.upgradeAsServer(connection, protocols: protocols, statement)
        case .http2: try await http2Steps.accept(connection, timeout: requested, started: started, statement)
        }
    }
}
