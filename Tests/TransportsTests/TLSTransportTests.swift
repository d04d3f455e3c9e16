import Foundation
import TestSupport
import Testing
import Transports

/// The NIO transport over TLS: lines both ways and a graceful stop, as over TCP; a server it
/// does not trust is a handshake failure, not a connection.
@Suite(.openssl) struct TLSTransportTests {
    private func events(of transport: any TCPTransport) async -> [String] {
        await bounded {
            var seen: [String] = []
            for await event in transport.events {
                switch event {
                case .started: seen.append("started")
                case .received(let line): seen.append("line:\(line)")
                case .framingError: seen.append("framing-error")
                case .peerClosed: seen.append("peer-closed")
                case .stopped(let error): seen.append(error == nil ? "stopped" : "stopped:error:\(error!)")
                }
            }
            return seen
        } ?? ["timed out"]
    }

    @Test func linesFlowBothWaysOverTLSAndStopIsGraceful() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (certificate, key) = try TestCertificate.make(in: directory)
        let listener = try NIOTransportListener(host: "127.0.0.1", port: 0, tls: .server(certificate: certificate, key: key)) { LineFraming() }
        defer { listener.close() }
        let client = NIOTransport(connectingTo: "127.0.0.1", port: listener.port, tls: .client(trusting: certificate, serverName: "localhost"))
        client.start()
        let server = try #require(await firstConnection(of: listener))
        server.start()
        client.send(line: "hello over TLS")
        client.stop()
        async let serverEvents = events(of: server)
        try await Task.sleep(for: .milliseconds(100))
        server.send(line: "bye over TLS")
        server.stop()
        let clientSeen = await events(of: client)
        let serverSeen = await serverEvents
        #expect(serverSeen == ["started", "line:hello over TLS", "peer-closed", "stopped"])
        #expect(clientSeen == ["started", "line:bye over TLS", "peer-closed", "stopped"])
    }

    @Test func aServerItDoesNotTrustIsAHandshakeFailure() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (certificate, key) = try TestCertificate.make(in: directory)
        let listener = try NIOTransportListener(host: "127.0.0.1", port: 0, tls: .server(certificate: certificate, key: key)) { LineFraming() }
        defer { listener.close() }
        // The system's roots do not hold a self-signed test certificate.
        let client = NIOTransport(connectingTo: "127.0.0.1", port: listener.port, tls: .client(trusting: nil, serverName: "localhost"))
        client.start()
        client.send(line: "never delivered")
        let seen = await events(of: client)
        #expect(seen.last?.hasPrefix("stopped:error:") == true && !seen.contains("line:never delivered"), "\(seen)")
        #expect(seen.last?.lowercased().contains("certificate") == true || seen.last?.contains("handshake") == true, "says why: \(seen)")
    }
}
