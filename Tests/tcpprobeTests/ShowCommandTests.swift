import Foundation
import TestSupport
import Testing

/// `tcpprobe show` on a TLS capture: it finds FILE.keys beside the pcap, or takes `--keylog`,
/// and shows the records and the decrypted lines; without keys it says so and shows none.
@Suite(.serialized, .heavy) struct ShowCommandTests {
    @Test(.root) func showDecryptsWithTheKeysBesideThePcapOrNamed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-show-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("tls.scn")
        try """
            set capture on
            listen l 127.0.0.1:0 tls
            connect c 127.0.0.1:{l.port} tls ca "{l.cert}"
            accept s on l
            c: send line "hello over TLS"
            s: expect line "hello over TLS"
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let pcaps = directory.appendingPathComponent("pcaps")
        let run = try await ProbeProcess.run(["run", "--keep-pcap", "always", "--pcap-dir", pcaps.path, scenario.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let pcap = try #require(try FileManager.default.contentsOfDirectory(atPath: pcaps.path).first { $0.hasSuffix(".pcap") })
        let path = pcaps.appendingPathComponent(pcap).path

        let beside = try await ProbeProcess.run(["show", path])
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(beside.stdout.contains("decrypted with the key log") && beside.stdout.contains("→ application-data 16 bytes \"hello over TLS\\r\\n\""), "\(beside.stdout)")

        let moved = directory.appendingPathComponent("alone.pcap").path
        try FileManager.default.copyItem(atPath: path, toPath: moved)
        let alone = try await ProbeProcess.run(["show", moved])
        #expect(alone.stdout.contains("not decrypted: no key log") && !alone.stdout.contains("hello over TLS"), "\(alone.stdout)")
        let named = try await ProbeProcess.run(["show", "--keylog", String(path.dropLast(5)) + ".keys", moved])
        #expect(named.stdout.contains("    → \"hello over TLS\\r\\n\""), "\(named.stdout)")
        let missing = try await ProbeProcess.run(["show", "--keylog", directory.appendingPathComponent("none.keys").path, moved])
        #expect(missing.status == 2 && missing.stderr.contains("none.keys"), "\(missing.status) \(missing.stderr)")
    }
}
