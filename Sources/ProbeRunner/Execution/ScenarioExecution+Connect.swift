#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix
import ProbeScript

/// The `connect` executor.
extension ScenarioExecution {
    /// The async part is only the connect itself: preparing and judging the outcome are
    /// synchronous, so a waiting `parallel` copy keeps no large frame from it.
    func connect(_ step: ConnectStep, _ statement: Statement) async throws {
        let attempt = try prepareConnect(step, statement)
        let started = clock.now
        let outcome: Result<(channel: Channel, resetWith: [UInt8]?), Error>
        do { outcome = .success(try await attempt.connect()) } catch { outcome = .failure(error) }
        try finishConnect(outcome, attempt, waited: clock.now - started, step, statement)
    }

    @inline(never)
    private func prepareConnect(_ step: ConnectStep, _ statement: Statement) throws -> ConnectAttempt {
        let address = try resolve(step.address, "an address HOST:PORT", Address.parse)
        let connectTimeout = try step.timeout.map { try resolve($0, "a duration", Quantity.duration) } ?? settings.timeout
        let name = step.name?.text ?? table.nextUnnamedName()
        try wire.watch(port: address.port, statement)
        let handler = InboundHandler(captureHold: wire.hold)
        let wait = limit(connectTimeout).wait
        var bootstrap = ProbeConnection.configure(ClientBootstrap(group: group))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
            }
        let receiveBuffer = try step.receiveBuffer.map { try resolve($0, "a size", Quantity.size) }
        let sendBuffer = try step.sendBuffer.map { try resolve($0, "a size", Quantity.size) }
        if let size = receiveBuffer {
            bootstrap = bootstrap.channelOption(ChannelOptions.socketOption(.so_rcvbuf), value: SocketOptionValue(size))
        }
        if let size = sendBuffer {
            bootstrap = bootstrap.channelOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(size))
        }
        return ConnectAttempt(address: address, name: name, handler: handler, bootstrap: bootstrap,
                              receiveBuffer: receiveBuffer, sendBuffer: sendBuffer, timeout: wait, hostNames: hostNames)
    }

    /// Keeps the connection, or says how the connect failed (which `expect refused|timeout` may want).
    @inline(never)
    private func finishConnect(_ outcome: Result<(channel: Channel, resetWith: [UInt8]?), Error>, _ attempt: ConnectAttempt, waited: Duration,
                               _ step: ConnectStep, _ statement: Statement) throws {
        let address = attempt.address
        let channel: Channel
        switch outcome {
        case .failure(let error):
            let reason = ConnectFailure(error)
            if let expected = step.expectedFailure {
                guard reason.matches(expected) else {
                    throw failure(statement, "expected the connect to \(address) to fail with \(expected.rawValue), but it failed with \(reason)", waited: waited)
                }
                record(statement, "connect to \(address) failed as expected: \(reason)")
                return
            }
            throw failure(statement, "cannot connect to \(address): \(reason)", waited: waited)
        case .success(let connected):
            channel = connected.channel
            if let early = connected.resetWith, step.expectedFailure == nil {
                let connection = keep(ProbeConnection(name: attempt.name, channel: channel, handler: attempt.handler, remotePort: address.port))
                record(statement, "\(connection.label): connected to \(address), but the peer had already reset it (RST), after sending \(early.count) bytes first")
                return
            }
        }
        if let expected = step.expectedFailure {
            channel.close(promise: nil)
            throw failure(statement, "expected the connect to \(address) to fail with \(expected.rawValue), but it succeeded", waited: waited)
        }
        let connection = keep(ProbeConnection(name: attempt.name, channel: channel, handler: attempt.handler))
        let local = channel.localAddress.map(Self.describe) ?? "?"
        record(statement, "\(connection.label): connected to \(address) from \(local)")
    }

    /// Makes `connection` the scenario's current one, under its name.
    private func keep(_ connection: ProbeConnection) -> ProbeConnection {
        table.add(connection)
        return connection
    }

    /// `127.0.0.1:5000` or `[::1]:5000`.
    static func describe(_ address: SocketAddress) -> String {
        guard let ip = address.ipAddress, let port = address.port else { return "\(address)" }
        return Address(host: ip, port: port).description
    }
}

/// Why a connect failed, in the terms of `connect ... expect refused|timeout`.
struct ConnectFailure: CustomStringConvertible {
    enum Reason { case refused, timeout, reset, other(String) }
    let reason: Reason

    init(_ error: Error) {
        reason = ConnectFailure.classify(error)
    }

    private static func classify(_ error: Error) -> Reason {
        if let error = error as? IOError {
            if error.errnoCode == ECONNREFUSED { return .refused }
            if error.errnoCode == ETIMEDOUT { return .timeout }
            if error.errnoCode == ECONNRESET { return .reset }
        }
        if case ChannelError.connectTimeout = error { return .timeout }
        return .other("\(error)")
    }

    func matches(_ expected: ConnectStep.Failure) -> Bool {
        switch (reason, expected) {
        case (.refused, .refused), (.timeout, .timeout): return true
        default: return false
        }
    }

    var description: String {
        switch reason {
        case .refused: return "refused (nothing listens there)"
        case .timeout: return "timeout (no answer to SYN)"
        case .reset: return "reset (the peer accepted, then sent RST before the connect completed)"
        case .other(let message): return message
        }
    }
}
