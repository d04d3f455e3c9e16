import Foundation
import TestSupport
import Testing
import Transports

/// The NIO transport over TLS: lines both ways and a graceful stop, as over TCP; a server it
/// does not trust is a handshake failure, not a connection.
@Suite(.openssl) struct TLSTransportTests {
    /// A TLS listener with a fresh self-signed certificate in a directory of its own, and a
    /// client of it trusting `clientTrusts(certificate)`; the body gets both. Both are closed and
    /// the directory removed afterwards.
    private func withServer(clientTrusts: (String) -> String?,
                            _ body: (NIOTransportListener, NIOTransport) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (certificate, key) = try TestCertificate.make(in: directory)
        let listener = try NIOTransportListener(host: "127.0.0.1", port: 0, tls: .server(certificate: certificate, key: key)) { LineFraming() }
        defer { listener.close() }
        let client = NIOTransport(connectingTo: "127.0.0.1", port: listener.port,
                                  tls: .client(trusting: clientTrusts(certificate), serverName: "localhost"))
        try await body(listener, client)
    }

    @Test func linesFlowBothWaysOverTLSAndStopIsGraceful() async throws {
        try await withServer(clientTrusts: { $0 }) { listener, client in
            client.start()
            let server = try #require(await firstConnection(of: listener))
            server.start()
            client.send(line: "hello over TLS")
            client.stop()
            async let serverEvents = eventLog(of: server)
            try await Task.sleep(for: .milliseconds(100))
            server.send(line: "bye over TLS")
            server.stop()
            let clientSeen = await eventLog(of: client)
            let serverSeen = await serverEvents
            #expect(serverSeen == ["started", "line:hello over TLS", "peer-closed", "stopped"])
            #expect(clientSeen == ["started", "line:bye over TLS", "peer-closed", "stopped"])
        }
    }

    @Test func aServerItDoesNotTrustIsAHandshakeFailure() async throws {
        // The system's roots do not hold a self-signed test certificate.
        try await withServer(clientTrusts: { _ in nil }) { _, client in
            client.start()
            client.send(line: "never delivered")
            let seen = await eventLog(of: client, showingErrors: true)
            #expect(seen.last?.hasPrefix("stopped:error:") == true && !seen.contains("line:never delivered"), "\(seen)")
            #expect(seen.last?.lowercased().contains("certificate") == true || seen.last?.contains("handshake") == true, "says why: \(seen)")
        }
    }
}
