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
        try await asNobody(["--inh-caps=-all", "--bounding-set=-all", ProbeProcess.binary.path] + arguments, in: directory, environment: ["CI": ci])
    }

    /// Runs `command` (setpriv's options first, if any) as `nobody`.
    private func asNobody(_ command: [String], in directory: URL? = nil, environment: [String: String] = [:]) async throws -> ProbeProcess.Output {
        try await ProbeProcess.run(["--reuid=65534", "--regid=65534", "--clear-groups"] + command, in: directory, environment: environment,
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



    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// Captures and reports hold whole payloads: another user can neither read them nor plant
    /// the folder they are written to.
    @Test func capturesArePrivateAndAPlantedFolderIsRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-private-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        for runtime in ["ours", "planted"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(runtime), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o1777])
        }
        try Data("""
            var port = free-port
            listen l 127.0.0.1:{port}
            connect a 127.0.0.1:{port}
            accept b on l
            b: send line "password=hunter2"
            a: expect line "password=hunter2"
            a: assert wire from peer terminator crlf
            """.utf8).write(to: directory.appendingPathComponent("w.scn"))
        let ours = directory.appendingPathComponent("ours").path
        let kept = try await ProbeProcess.run(["run", "--keep-pcap", "always", "--report", "json=r.json", "w.scn"], in: directory,
                                              environment: ["XDG_RUNTIME_DIR": ours, "CI": ""])
        #expect(kept.status == 0, "\(kept.stdout)\(kept.stderr)")
        let folder = ours + "/tcpprobe"
        #expect(try mode(folder) == 0o700)
        let pcaps = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pcap") }
        try #require(pcaps.count == 1, "\(pcaps)")
        let pcap = folder + "/" + pcaps[0]
        #expect(try mode(pcap) == 0o600)
        #expect(try mode(directory.appendingPathComponent("r.json").path) == 0o600)
        let peek = try await asNobody(["/bin/cat", pcap])
        #expect(peek.status != 0 && !peek.stdout.contains("hunter2"), "another user read the capture")

        let planted = directory.appendingPathComponent("planted").path
        let made = try await asNobody(["/bin/mkdir", "-m", "0777", planted + "/tcpprobe"])
        try #require(made.status == 0, "\(made.stderr)")
        let refused = try await ProbeProcess.run(["run", "w.scn"], in: directory, environment: ["XDG_RUNTIME_DIR": planted, "CI": ""])
        #expect(refused.status == 3, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stdout.contains("cannot capture into \(planted)/tcpprobe: it belongs to uid 65534"), "\(refused.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: planted + "/tcpprobe").isEmpty, "nothing was written there")
    }
}
