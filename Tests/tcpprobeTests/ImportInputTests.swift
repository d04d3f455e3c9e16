import Foundation
import Testing

/// `tcpprobe import` on bad input: a clear error and exit 2, never a crash; and a capture of
/// several connections lists them.
@Suite struct ImportInputTests {
    static let captures = ProbeProcess.fixtures.appendingPathComponent("captures")

    private func importing(_ bytes: [UInt8], _ arguments: [String] = []) async throws -> ProbeProcess.Output {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-bad-\(UUID().uuidString).pcap")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await ProbeProcess.run(["import", file.path] + arguments)
    }

    @Test func badCapturesAreClearErrors() async throws {
        let good = try [UInt8](Data(contentsOf: Self.captures.appendingPathComponent("crlf.pcap")))
        let cases: [([UInt8], String)] = [
            (Array("not a capture at all, but a text file\n".utf8), "not a pcap or pcapng file: magic number"),
            (Array(good.prefix(good.count - 7)), "the pcap file is truncated in the record at byte"),
            (Array(good.prefix(24)), "no TCP connection in the capture"),
            (Array(good.prefix(24)) + Array(good[(24 + 16 + Int(good[32]))...]), "the connection's handshake was not captured (no SYN)"),
        ]
        for (bytes, message) in cases {
            let output = try await importing(bytes)
            #expect(output.status == 2 && output.stderr.contains(message), "\(message): \(output.status) \(output.stderr)")
        }
        let elsewhere = try await ProbeProcess.run(["import", Self.captures.appendingPathComponent("crlf.pcap").path, "--port", "1"])
        #expect(elsewhere.status == 2 && elsewhere.stderr.contains("no TCP connection on port 1 in the capture"), "\(elsewhere.stderr)")
    }

    /// A capture that cannot be read is named once, with the system's reason, by `import` and
    /// `show` alike.
    @Test func aCaptureThatCannotBeReadSaysWhy() async throws {
        let folder = FileManager.default.temporaryDirectory.path
        for (path, reason) in [("/tcpprobe-absent-\(UUID().uuidString).pcap", "No such file or directory"), (folder, "Is a directory")] {
            for command in ["import", "show"] {
                let output = try await ProbeProcess.run([command, path])
                #expect(output.status == 2 && output.stderr == "error: \(path): cannot be read: \(reason)\n", "\(command) \(path): \(output.stderr)")
            }
        }
    }

    /// Two captures of the same conversation, one after the other in a file: the first
    /// connection's SYN and the rest of both; import lists them and takes the one chosen.
    @Test func severalConnectionsAreListed() async throws {
        let good = try [UInt8](Data(contentsOf: Self.captures.appendingPathComponent("crlf.pcap")))
        var second = Array(good[24...])
        // The same packets again, with the client's port changed (bytes 34-35 and 36-37 of each
        // Ethernet frame hold the ports; the capture is on loopback, Ethernet framing).
        var offset = 0
        let clientPort: [UInt8] = Array(good[(24 + 16 + 34)..<(24 + 16 + 36)])
        while offset + 16 <= second.count {
            let length = Int(second[offset + 8]) | Int(second[offset + 9]) << 8
            for at in [offset + 16 + 34, offset + 16 + 36] where Array(second[at..<(at + 2)]) == clientPort { second[at + 1] &+= 1 }
            offset += 16 + length
        }
        let both = good + second
        let listed = try await importing(both)
        #expect(listed.status == 2 && listed.stderr.contains("holds 2 connections; choose one with --connection K"), "\(listed.stderr)")
        #expect(listed.stderr.contains("  1: 127.0.0.1:") && listed.stderr.contains("  2: 127.0.0.1:"), "\(listed.stderr)")
        let chosen = try await importing(both, ["--connection", "2"])
        #expect(chosen.status == 0 && chosen.stdout.contains("send line \"iam:Luke\"") && chosen.stdout.contains(", connection 2:"), "\(chosen.stdout)\(chosen.stderr)")
        let missing = try await importing(both, ["--connection", "3"])
        #expect(missing.status == 2 && missing.stderr.contains("there is no connection 3"), "\(missing.stderr)")
    }

    /// tshark's pcapng of the capture imports to the same scenario.
    @Test func pcapngImportsAsThePcap() async throws {
        let pcap = try await ProbeProcess.run(["import", Self.captures.appendingPathComponent("crlf.pcap").path])
        let pcapng = try await ProbeProcess.run(["import", Self.captures.appendingPathComponent("crlf.pcapng").path])
        #expect(pcap.status == 0 && pcapng.status == 0)
        #expect(pcap.stdout.split(separator: "\n").dropFirst() == pcapng.stdout.split(separator: "\n").dropFirst(), "\(pcapng.stdout)")
    }
}
