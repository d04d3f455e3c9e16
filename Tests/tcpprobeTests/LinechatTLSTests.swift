import Foundation
import Glibc
import TestSupport
import Testing

/// linechat over TLS, with a real peer: `openssl s_client` joins `linechat serve --tls`, and so
/// does `linechat connect --tls --ca`.
@Suite(.openssl) struct LinechatTLSTests {

    /// What `handle` gives until it holds `text` or `limit` passes (the reader gives up then).
    private func read(_ handle: FileHandle, until text: String, within limit: Duration = .seconds(5)) -> String {
        var seen = Data()
        let deadline = ContinuousClock.now + limit
        var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: seen, as: UTF8.self).contains(text), ContinuousClock.now < deadline {
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let count = Glibc.read(handle.fileDescriptor, &chunk, chunk.count)
            if count <= 0 { break }
            seen += chunk[..<count]
        }
        return String(decoding: seen, as: UTF8.self)
    }

    @Test func openSSLAndTheLinechatClientJoinOverTLS() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-chat-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (certificate, key) = try TestCertificate.make(in: directory)

        let server = Process()
        server.executableURL = ProbeProcess.linechat
        server.arguments = ["serve", "--port", "0", "--tls", certificate, key]
        let serverOut = Pipe()
        server.standardOutput = serverOut
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        let banner = read(serverOut.fileHandleForReading, until: "\n")
        #expect(banner.contains("(transport nio, TLS)"), "\(banner)")
        let port = try #require(banner.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) }, "\(banner)")

        // "quit" makes the server say "bye" and close: s_client (told to ignore its input's end) then exits.
        let openssl = try await ProbeProcess.run(["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost", "-CAfile", certificate,
                                                  "-verify_return_error", "-quiet", "-crlf", "-ign_eof"],
                                                 input: "iam:Luke\nquit\n", executable: URL(fileURLWithPath: try #require(Requirement.openssl.path)))
        #expect(openssl.stdout.contains("Luke has joined\r\nbye\r\n"), "openssl s_client joined over TLS: \(openssl.stdout)\(openssl.stderr)")

        let ours = try await ProbeProcess.run(["connect", "--tls", "--ca", certificate, "localhost:\(port)", "--name", "Han"],
                                              input: "msg:hello\n", executable: ProbeProcess.linechat)
        #expect(ours.status == 0, "\(ours.stdout)\(ours.stderr)")
        #expect(ours.stdout.contains("Han has joined") && ours.stdout.contains("Han: hello"), "\(ours.stdout)")

        let untrusting = try await ProbeProcess.run(["connect", "--tls", "localhost:\(port)", "--name", "Leia"], input: "",
                                                    executable: ProbeProcess.linechat)
        #expect(untrusting.status != 0 && untrusting.stderr.contains("handshake"), "no trust in a self-signed server: \(untrusting.stderr)")
    }
}
