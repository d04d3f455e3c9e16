#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix
import ProbeHost
import ProbeResults
import ProbeScript

/// The `connect` executor.
extension ScenarioExecution {
    /// Starts `connect`: a plain TCP connect with no task (true: `done` is told its end), one
    /// with TLS or WebSocket as a task.
    func startConnect(_ written: ConnectStep, _ statement: Statement, done: @escaping StepDone) throws -> Bool {
        let step = try schemeURL(written, statement)
        guard step.tls == nil, step.webSocket == nil, step.http2 == nil, options.defaultTLS?.client == nil else {
            onTask { try await self.connect(step, statement) }.tell(done)
            return true
        }
        open(try prepareConnect(step, statement), step, statement).tell(done)
        return true
    }

    /// The async part is only the connect itself: preparing and judging the outcome are
    /// synchronous, so a waiting `parallel` copy keeps no large frame from it.
    func connect(_ step: ConnectStep, _ statement: Statement) async throws {
        let attempt = try prepareConnect(step, statement)
        let secureURL = step.webSocket?.secure == true || step.http2?.secure == true ? TLSOptions() : nil
        var tlsOptions = step.tls ?? options.defaultTLS?.client ?? secureURL
        if step.http2?.secure == true, tlsOptions?.applicationProtocols.isEmpty == true { tlsOptions?.applicationProtocols = [Template.word("h2", at: step.address.location)] }
        let tls = try tlsOptions.map { try tlsSteps.tlsContext($0, role: .client, host: attempt.address.host, statement) }
        let started = clock.now
        guard let connection = try await open(attempt, step, statement).get() else { return }
        if let tls {
            let session = try await tlsSteps.beginTLS(tls, on: connection)
            try await tlsSteps.finishHandshake(session, on: connection, within: attempt.timeout - (clock.now - started),
                                      expectFailure: step.expectedFailure == .tlsFailure, statement)
        }
        if let webSocket = step.webSocket, connection.closedAt == nil {
            try await webSocketSteps.upgradeAsClient(connection, webSocket, host: attempt.address.description, within: attempt.timeout - (clock.now - started), statement)
        }
        if let http2 = step.http2, connection.closedAt == nil {
            try await http2Steps.start(connection, http2, address: attempt.address.description, timeout: attempt.timeout, started: started, statement)
        }
    }

    /// `connect {url}` where the variable holds `ws://HOST:PORT/PATH`, `wss://…`, `h2://…` or
    /// `h2s://…` (as the WebSocket and HTTP/2 suites take `--var url=…`): the WebSocket or
    /// HTTP/2 connect that URL names. Only an address that starts with a variable is looked
    /// at, and one that renders HOST:PORT comes back resolved, so no address is rendered twice.
    func schemeURL(_ step: ConnectStep, _ statement: Statement) throws -> ConnectStep {
        guard step.webSocket == nil, step.http2 == nil, case .interpolated(let template) = step.address.form, let first = template.parts.first,
              case .variable = first else { return step }
        let text = template.renderString(lookup)
        guard let url = SchemeURL.split(text, schemes: ["ws", "wss", "h2", "h2s"], at: step.address.location) else {
            guard let address = Address.parse(text) else { return step } // resolving it again says why it is not one
            var resolved = step
            resolved.address = Argument(address, text: step.address.text, at: step.address.location)
            return resolved
        }
        guard let address = Address.parse(url.address) else {
            throw StepFailure(statement, ConnectionFailure.badURLAddress(argument: step.address.text, rendered: text, address: url.address))
        }
        var resolved = step
        resolved.address = Argument(address, text: url.address, at: step.address.location)
        if url.scheme.hasPrefix("h2") {
            resolved.http2 = HTTP2Target(secure: url.scheme == "h2s", path: url.path)
        } else {
            resolved.webSocket = WebSocketTarget(secure: url.scheme == "wss", path: url.path)
        }
        return resolved
    }

    /// The TCP connect, completing on the run's loop: the connection kept, or nil when the
    /// connect failed as the step expected or the peer had reset it already.
    func open(_ attempt: ConnectAttempt, _ step: ConnectStep, _ statement: Statement) -> EventLoopFuture<ProbeConnection?> {
        let started = clock.now
        return attempt.connect(on: loop).assumeIsolated()
            .map { Result<(channel: Channel, resetWith: [UInt8]?), Error>.success($0) }
            .recover { .failure($0) }
            .flatMapThrowing { try self.finishConnect($0, attempt, waited: self.clock.now - started, step, statement) }
            .nonisolated()
    }

    @inline(never)
    func prepareConnect(_ step: ConnectStep, _ statement: Statement) throws -> ConnectAttempt {
        let address = try resolve(step.address, "an address HOST:PORT", Address.parse)
        let connectTimeout = try step.timeout.map { try resolve($0, "a duration", Quantity.duration) } ?? settings.timeout
        let name = step.name?.text ?? table.nextUnnamedName()
        try wire.watch(port: address.port, statement)
        let handler = InboundHandler(captureHold: wire.hold)
        let boundHandler = NIOLoopBound(handler, eventLoop: loop)
        let wait = limit(connectTimeout).wait
        var bootstrap = ProbeConnection.configure(ClientBootstrap(group: loop))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(boundHandler.value) }
            }
        let receiveBuffer = try step.receiveBuffer.map { try resolve($0, "a size", Quantity.size) }
        let sendBuffer = try step.sendBuffer.map { try resolve($0, "a size", Quantity.size) }
        if let size = receiveBuffer {
            bootstrap = bootstrap.channelOption(ChannelOptions.socketOption(.so_rcvbuf), value: SocketOptionValue(size))
        }
        if let size = sendBuffer {
            bootstrap = bootstrap.channelOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(size))
        }
        let source = try step.source.map { try resolve($0, "an address to connect from", { try? SourceAddress.parse($0).get() }) }
        return ConnectAttempt(address: address, name: name, handler: handler, bootstrap: bootstrap, source: source.map(run.sourceAddresses.take),
                              receiveBuffer: receiveBuffer, sendBuffer: sendBuffer, timeout: wait, hostNames: run.hostNames)
    }

    /// Keeps the connection, or says how the connect failed (which `expect refused|timeout` may
    /// want). The connection is returned when it is open and a TLS handshake may follow.
    @inline(never)
    private func finishConnect(_ outcome: Result<(channel: Channel, resetWith: [UInt8]?), Error>, _ attempt: ConnectAttempt, waited: Duration,
                               _ step: ConnectStep, _ statement: Statement) throws -> ProbeConnection? {
        let address = attempt.address
        let channel: Channel
        let tcpFailureExpected = step.expectedFailure.map { $0 != .tlsFailure } ?? false
        switch outcome {
        case .failure(let error as SourceUnavailable):
            throw StepFailure(statement, ConnectionFailure.sourceUnavailable("\(error)"))
        case .failure(let error):
            let reason = ConnectFailure(error)
            if let expected = step.expectedFailure {
                guard reason.matches(expected) else {
                    throw StepFailure(statement, ConnectionFailure.connectFailedOtherwise(address: "\(address)", expected: expected.rawValue, why: reason), waited: waited)
                }
                record(statement, "connect to \(address) failed as expected: \(reason)")
                return nil
            }
            throw StepFailure(statement, ConnectionFailure.cannotConnect(address: "\(address)", why: reason), waited: waited)
        case .success(let connected):
            channel = connected.channel
            if let early = connected.resetWith, !tcpFailureExpected {
                let connection = keep(ProbeConnection(name: attempt.name, channel: channel, handler: attempt.handler,
                                                      connectedHost: address.host, remotePort: address.port))
                record(statement, "\(connection.label): connected to \(address), but the peer had already reset it (RST), after sending \(early.count) bytes first")
                if step.tls ?? options.defaultTLS?.client != nil { throw StepFailure(statement, ConnectionFailure.resetBeforeTLS, connection, waited: waited) }
                return nil
            }
        }
        if let expected = step.expectedFailure, tcpFailureExpected {
            channel.close(promise: nil)
            throw StepFailure(statement, ConnectionFailure.connectSucceeded(address: "\(address)", expected: expected.rawValue), waited: waited)
        }
        let connection = keep(ProbeConnection(name: attempt.name, channel: channel, handler: attempt.handler, connectedHost: address.host))
        record(statement, "\(connection.label): connected to \(address) from \(channel.localAddress.map(Self.describe) ?? "?")")
        return connection
    }

    /// Makes `connection` the scenario's current one, under its name.
    private func keep(_ connection: ProbeConnection) -> ProbeConnection {
        wire.claim(probePort: connection.localPort, peerPort: connection.remotePort)
        table.add(connection)
        return connection
    }

    /// `127.0.0.1:5000` or `[::1]:5000`.
    static func describe(_ address: SocketAddress) -> String {
        guard let ip = address.ipAddress, let port = address.port else { return "\(address)" }
        return Address(host: ip, port: port).description
    }
}
