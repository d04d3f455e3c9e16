import Foundation
import NIOCore
import ProbeResults
@testable import ProbeRunner
import ProbeScript
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The keys of TLS connections beside their capture: written 0600 next to a kept pcap, never
/// in the result, and enough for tshark to decrypt the pcap, for TLS 1.3 and 1.2.
@Suite(.serialized, .heavy, .root)
struct TLSCaptureTests {
    private func run(_ text: String, directory: String) async throws -> ScenarioResult {
        let loaded = ScenarioLoader.load("tls.scn", predefinedVariables: []) { _ in text }
        let scenario = try #require(loaded.scenario, "\(loaded.diagnostics)")
        let options = RunOptions(capture: CaptureSettings(directory: directory, keep: .always))
        return await ScenarioHarness.runOnOwnLoop(scenario, options: options)
    }

    @Test(.tshark, arguments: ["1.3", "1.2"]) func tsharkDecryptsAKeptPcapWithItsKeys(version: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-tls-pcap-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try await run("""
            set capture on
            listen l 127.0.0.1:0 tls
            connect c 127.0.0.1:{l.port} tls ca "{l.cert}" version \(version)
            accept s on l
            c: send line "hello over TLS"
            s: expect line "hello over TLS"
            s: send line "and back"
            c: expect line "and back"
            c: close
            s: expect eof
            """, directory: directory)
        result.expectPassed()
        let pcap = String(try #require(result.notes.first { $0.hasPrefix("pcap: ") }).dropFirst(6))
        let keys = String(try #require(result.notes.first { $0.hasPrefix("TLS keys: ") }).dropFirst(10))
        #expect(keys == String(pcap.dropLast(5)) + ".keys")
        var status = stat()
        #expect(stat(keys, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        let lines = try String(contentsOfFile: keys, encoding: .utf8).split(separator: "\n")
        let labels = Set(lines.compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(labels == (version == "1.3"
            ? ["CLIENT_HANDSHAKE_TRAFFIC_SECRET", "SERVER_HANDSHAKE_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_0", "SERVER_TRAFFIC_SECRET_0", "EXPORTER_SECRET"]
            : ["CLIENT_RANDOM"]), "\(labels)")
        // Both ends of the one connection log the same secrets: the file names each once per end.
        let secrets = lines.compactMap { $0.split(separator: " ").last.map(String.init) }
        #expect(!secrets.isEmpty)
        let reported = (result.log.map(\.message) + result.notes).joined(separator: "\n")
        #expect(!secrets.contains { reported.contains($0) }, "a secret reached the result")

        let decrypted = try Self.tshark(["-r", pcap, "-o", "tls.keylog_file:\(keys)", "-Y", "data", "-T", "fields", "-e", "data.data"])
        #expect(decrypted.split(separator: "\n").map(String.init) == [Self.hex("hello over TLS\r\n"), Self.hex("and back\r\n")], "\(decrypted)")
        let undecrypted = try Self.tshark(["-r", pcap, "-Y", "data", "-T", "fields", "-e", "data.data"])
        #expect(undecrypted.isEmpty, "without the keys tshark must see no plaintext: \(undecrypted)")
    }

    /// `$SSLKEYLOGFILE` gets every line as it comes, in a file made 0600.
    @Test func theKeyLogAppendsToSSLKEYLOGFILE() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-keylog-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let keyLog = TLSKeyLog(environment: ["SSLKEYLOGFILE": path])
        for line in ["CLIENT_RANDOM 00 11", "CLIENT_RANDOM 22 33\n"] { keyLog.add(ByteBuffer(string: line)) }
        #expect(keyLog.all == ["CLIENT_RANDOM 00 11", "CLIENT_RANDOM 22 33"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "CLIENT_RANDOM 00 11\nCLIENT_RANDOM 22 33\n")
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
    }

    static func hex(_ text: String) -> String {
        text.utf8.map { String(format: "%02x", $0) }.joined()
    }

    static func tshark(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Requirement.tshark.path))
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output.trimmingCharacters(in: .newlines)
    }
}
