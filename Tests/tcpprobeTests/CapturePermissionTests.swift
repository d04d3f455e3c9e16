import Foundation
import TestSupport
import Testing

/// Without CAP_NET_RAW wire assertions are skipped with the reason and remedy, unless
/// --require-capture makes that an environment error. Runs tcpprobe as `nobody` with no capabilities.
/// Needs root, to drop to an unprivileged user with setpriv.
@Suite(.root, .setpriv)
struct CapturePermissionTests {
    /// Runs tcpprobe as `nobody` with no capabilities, with `CI` set to `ci`.
    private func unprivileged(_ arguments: [String], in directory: URL, ci: String) async throws -> ProbeProcess.Output {
        try await ProbeProcess.run(["--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all",
                              ProbeProcess.binary.path] + arguments, in: directory, environment: ["CI": ci],
                                   executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
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
        let skipped = try await unprivileged(["run", "w.scn"], in: directory, ci: "")
        #expect(skipped.status == 0, "\(skipped.stdout)\(skipped.stderr)")
        #expect(skipped.stdout.contains("wire assertions skipped: no permission to capture"))
        #expect(skipped.stdout.contains("setcap cap_net_raw,cap_net_admin+eip"))
        #expect(skipped.stdout.contains("1 passed (1 wire check skipped), 0 failed"), "a skipped check is never a silent pass: \(skipped.stdout)")
        let required = try await unprivileged(["run", "--require-capture", "w.scn"], in: directory, ci: "")
        #expect(required.status == 3, "\(required.stdout)\(required.stderr)")
        #expect(required.stdout.contains("cannot capture"))
        // Under CI, failing closed is the default, and --allow-skipped-wire opts out.
        for ci in ["true", "1", "yes"] {
            let closed = try await unprivileged(["run", "w.scn"], in: directory, ci: ci)
            #expect(closed.status == 3, "CI=\(ci): \(closed.stdout)\(closed.stderr)")
        }
        let allowed = try await unprivileged(["run", "--allow-skipped-wire", "w.scn"], in: directory, ci: "true")
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        #expect(allowed.stdout.contains("1 passed (1 wire check skipped), 0 failed"))
        let notCI = try await unprivileged(["run", "w.scn"], in: directory, ci: "false")
        #expect(notCI.status == 0, "CI=false is no CI: \(notCI.stdout)\(notCI.stderr)")
    }
}
