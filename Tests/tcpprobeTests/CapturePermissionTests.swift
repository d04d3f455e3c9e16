import Foundation
import TestSupport
import Testing

/// Without CAP_NET_RAW wire assertions are skipped with the reason and remedy, unless
/// --require-capture makes that an environment error. Runs tcpprobe as `nobody` with no capabilities.
/// Needs root, to drop to an unprivileged user with setpriv.
@Suite(.root, .setpriv)
struct CapturePermissionTests {
    private func unprivileged(_ arguments: [String], in directory: URL) async throws -> ProbeProcess.Output {
        try await ProbeProcess.run(["--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all",
                              ProbeProcess.binary.path] + arguments, in: directory, executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
    }

    @Test func wireAssertionsAreSkippedWithTheRemedyOrFailWhenRequired() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-perm-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("""
            var port = free-port
            listen l 127.0.0.1:{port}
            connect a 127.0.0.1:{port}
            accept b on l
            b: send line "x"
            a: expect line "x"
            a: assert wire from peer terminator crlf
            """.utf8).write(to: directory.appendingPathComponent("w.scn"))
        let skipped = try await unprivileged(["run", "w.scn"], in: directory)
        #expect(skipped.status == 0, "\(skipped.stdout)\(skipped.stderr)")
        #expect(skipped.stdout.contains("wire assertions skipped: no permission to capture"))
        #expect(skipped.stdout.contains("setcap cap_net_raw,cap_net_admin+eip"))
        let required = try await unprivileged(["run", "--require-capture", "w.scn"], in: directory)
        #expect(required.status == 3, "\(required.stdout)\(required.stderr)")
        #expect(required.stdout.contains("cannot capture"))
    }
}
