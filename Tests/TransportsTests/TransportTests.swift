import Foundation
import Testing
import Transports

/// Every transport talks to every other over loopback: lines both ways, FIN on stop, RST on abort.
@Suite struct TransportTests {
    static let pairs = TransportKind.allCases.flatMap { server in TransportKind.allCases.map { (server, $0) } }

    /// A listener of `server`'s kind and a connection to it of `client`'s, both sides started.
    private func connectedPair(_ server: TransportKind, _ client: TransportKind, maximumLength: Int = LineFraming.defaultMaximumLength)
        async throws -> (listener: any TransportListener, client: any TCPTransport, server: any TCPTransport) {
        let listener = try server.listen(host: "127.0.0.1", port: 0) { LineFraming(maximumLength: maximumLength) }
        let connection = client.connect(host: "127.0.0.1", port: listener.port)
        connection.start()
        guard let serverSide = await firstConnection(of: listener) else {
            listener.close()
            throw PairError.notAccepted
        }
        serverSide.start()
        return (listener, connection, serverSide)
    }

    private enum PairError: Error, CustomStringConvertible {
        case notAccepted
        var description: String { "no connection accepted within 5 s" }
    }

    @Test(arguments: pairs)
    func linesFlowBothWaysAndStopIsGraceful(_ server: TransportKind, _ client: TransportKind) async throws {
        let (listener, connection, serverSide) = try await connectedPair(server, client)
        defer { listener.close() }
        connection.send(line: "hello from \(client)")
        connection.send(bytes: Array("split ".utf8))
        connection.send(bytes: Array("line\r\n".utf8))
        connection.stop()
        async let serverEvents = eventLog(of: serverSide)
        // The server answers after the client's half-close, then stops too.
        try await Task.sleep(for: .milliseconds(100))
        serverSide.send(line: "bye from \(server)")
        serverSide.stop()
        let clientSeen = await eventLog(of: connection)
        let serverSeen = await serverEvents
        #expect(serverSeen == ["started", "line:hello from \(client)", "line:split line", "peer-closed", "stopped"])
        #expect(clientSeen == ["started", "line:bye from \(server)", "peer-closed", "stopped"])
        #expect(connection.state.isStopped && serverSide.state.isStopped)
    }

    /// An abort is the transport's own end: it reports no peer close (the BSD transport took
    /// the end of its own reads for the peer's FIN), and the peer sees RST, not FIN.
    @Test(arguments: TransportKind.allCases)
    func anAbortReportsNoPeerCloseAndResets(_ kind: TransportKind) async throws {
        let (listener, client, serverSide) = try await connectedPair(kind, kind)
        defer { listener.close() }
        async let serverEvents = eventLog(of: serverSide)
        let clientSeen = await bounded {
            var seen: [String] = []
            for await event in client.events {
                if case .started = event {
                    seen.append("started")
                    client.abort()
                } else if case .peerClosed = event {
                    seen.append("peer-closed")
                } else if case .stopped = event {
                    seen.append("stopped")
                }
            }
            return seen
        }
        #expect(clientSeen == ["started", "stopped"], "\(kind)")
        #expect(await serverEvents == ["started", "stopped:error"], "\(kind): the server saw a reset")
    }

    @Test(arguments: TransportKind.allCases)
    func aLineOverTheLimitIsAFramingErrorNotUnboundedMemory(_ kind: TransportKind) async throws {
        let (listener, client, serverSide) = try await connectedPair(kind, .bsd, maximumLength: 16)
        defer { listener.close() }
        client.send(bytes: [UInt8](repeating: 120, count: 4096))
        let seen = await bounded {
            var seen: [String] = []
            for await event in serverSide.events {
                if case .framingError = event {
                    seen.append("framing-error")
                    serverSide.abort()
                }
                if case .stopped = event { seen.append("stopped") }
            }
            return seen
        }
        #expect(seen == ["framing-error", "stopped"])
        client.abort()
    }

    /// A Dispatch transport closes its socket only after its sources are gone: a socket number
    /// reused at once by another listener or connection must still see its events. Eight loops
    /// at a time open and close sockets, so numbers are reused while sources are torn down.
    @Test func socketNumbersReusedAtOnceStillSeeTheirEvents() async throws {
        let failures = await withTaskGroup(of: [String].self) { group in
            for loop in 1...8 {
                group.addTask { await self.openAndAbort(rounds: 250, loop: loop) }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures == [])
    }

    /// Accepts one connection on a Dispatch listener `rounds` times, aborting both ends each time.
    private func openAndAbort(rounds: Int, loop: Int) async -> [String] {
        for round in 1...rounds {
            guard let listener = try? TransportKind.dispatch.listen(host: "127.0.0.1", port: 0, makeUnframer: { LineFraming() }) else {
                return ["loop \(loop) round \(round): listen failed"]
            }
            let client = TransportKind.dispatch.connect(host: "127.0.0.1", port: listener.port)
            client.start()
            let accepted = await firstConnection(of: listener)
            listener.close()
            guard let serverSide = accepted else {
                client.abort()
                return ["loop \(loop) round \(round): no connection accepted within 5 s"]
            }
            serverSide.start()
            serverSide.abort()
            let seen = await eventLog(of: client)
            guard seen.last == "stopped" || seen.last == "stopped:error" else {
                return ["loop \(loop) round \(round): the client saw \(seen)"]
            }
        }
        return []
    }

    @Test func connectingToNothingStopsWithAnError() async {
        for kind in TransportKind.allCases {
            let transport = kind.connect(host: "127.0.0.1", port: 1)
            transport.start()
            let seen = await eventLog(of: transport)
            #expect(seen == ["stopped:error"], "\(kind)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func listeningOnATakenPortSaysSoInTheSameWords(_ kind: TransportKind) throws {
        let first = try kind.listen(host: "127.0.0.1", port: 0) { LineFraming() }
        defer { first.close() }
        do {
            let second = try kind.listen(host: "127.0.0.1", port: first.port) { LineFraming() }
            second.close()
            Issue.record("\(kind) listened on a port that was taken")
        } catch {
            #expect("\(error)" == "listen on 127.0.0.1:\(first.port): Address already in use", "\(kind)")
        }
    }
}
