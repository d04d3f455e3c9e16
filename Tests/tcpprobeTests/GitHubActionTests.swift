import Foundation
import Testing

/// The composite GitHub Action at the root: its metadata and the example workflow lint clean
/// (and a broken one does not), and its run script runs scenarios into the reports it names.
@Suite(.onPath("check-jsonschema", remedy: "pip install check-jsonschema"),
       .onPath("zizmor", remedy: "pip install zizmor"),
       .onPath("shellcheck", remedy: "apt-get install shellcheck"))
struct GitHubActionTests {
    static let root = ProbeProcess.fixtures.deletingLastPathComponent().deletingLastPathComponent()

    static func bash(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProbeProcess.Output {
        try await ProbeProcess.run(arguments, in: root, environment: environment, executable: URL(fileURLWithPath: "/bin/bash"))
    }

    @Test func theActionAndTheExampleWorkflowLintClean() async throws {
        let lint = try await Self.bash(["action/lint"])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stdout.contains("action/lint: OK"))
    }

    @Test func lintRejectsAMalformedActionAndAnInjectableWorkflow() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("action-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let action = try String(contentsOf: Self.root.appendingPathComponent("action.yml"), encoding: .utf8)
        let workflow = try String(contentsOf: Self.root.appendingPathComponent("examples/github-actions.yml"), encoding: .utf8)
        let good = (action: folder.appendingPathComponent("good-action.yml"), workflow: folder.appendingPathComponent("good.yml"))
        try action.write(to: good.action, atomically: true, encoding: .utf8)
        try workflow.write(to: good.workflow, atomically: true, encoding: .utf8)

        let broken = folder.appendingPathComponent("action.yml")
        try action.replacing("using: composite", with: "using: composit").write(to: broken, atomically: true, encoding: .utf8)
        let malformed = try await Self.bash(["action/lint", broken.path, good.workflow.path])
        #expect(malformed.status != 0)
        #expect(malformed.stdout.contains(broken.path) || malformed.stderr.contains(broken.path))

        // A scenario path taken from an issue's title into a shell: template injection.
        let injectable = folder.appendingPathComponent("injectable.yml")
        try workflow.replacing("run: make server", with: "run: make server ${{ github.event.issue.title }}")
            .write(to: injectable, atomically: true, encoding: .utf8)
        let injected = try await Self.bash(["action/lint", good.action.path, injectable.path])
        #expect(injected.status != 0)
        #expect((injected.stdout + injected.stderr).contains("template-injection"))
    }

    @Test(.root) func theRunScriptWritesReportsAndTheExitCode() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("action-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let failing = folder.appendingPathComponent("fails.scn")
        try """
        var port = free-port
        spawn server "linechat serve --port {port}" ready on 127.0.0.1:{port}
        connect 127.0.0.1:{port}
        send line "ping"
        expect line "pong!"
        assert wire from peer terminator crlf

        """.write(to: failing, atomically: true, encoding: .utf8)
        for (scenario, expected) in [("Scenarios/crlf.scn", 0), (failing.path, 1)] {
            let reports = folder.appendingPathComponent("reports-\(expected)")
            let outputs = folder.appendingPathComponent("outputs-\(expected)")
            let run = try await Self.bash(["action/run.sh"], environment: [
                "TCPPROBE_BIN": ProbeProcess.binary.path, "TCPPROBE_SCENARIOS": scenario,
                "TCPPROBE_ARGS": "--var unused=1 --jobs 1", "TCPPROBE_REPORTS": reports.path, "GITHUB_OUTPUT": outputs.path,
            ])
            #expect(run.status == Int32(expected), "\(run.stdout)\(run.stderr)")
            let written = try String(contentsOf: outputs, encoding: .utf8)
            #expect(written == "exit-code=\(expected)\njunit=\(reports.path)/junit.xml\n")
            let junit = try String(contentsOf: reports.appendingPathComponent("junit.xml"), encoding: .utf8)
            #expect(junit.contains("failures=\"\(expected)\""))
            #expect(FileManager.default.fileExists(atPath: reports.appendingPathComponent("report.html").path))
            let pcaps = try FileManager.default.contentsOfDirectory(atPath: reports.appendingPathComponent("pcaps").path)
            #expect(pcaps.contains { $0.hasSuffix(".pcap") } == (expected == 1), "pcaps kept: \(pcaps)")
        }
    }
}
