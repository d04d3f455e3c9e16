import Foundation
import Testing

/// The recipes for one load in parts (examples/load): the Kubernetes Indexed Job and the GitHub
/// Actions matrix validate offline against their schemas, and a broken one does not.
@Suite(.onPath("kubernetes-validate", remedy: "pip install kubernetes-validate"),
       .onPath("check-jsonschema", remedy: "pip install check-jsonschema"),
       .onPath("zizmor", remedy: "pip install zizmor"))
struct LoadRecipesTests {
    static let folder = ProbeProcess.fixtures.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/load")

    static func lint(_ arguments: [String] = []) async throws -> ProbeProcess.Output {
        try await ProbeProcess.run([folder.appendingPathComponent("lint").path] + arguments, executable: URL(fileURLWithPath: "/bin/bash"))
    }

    @Test func theRecipesValidate() async throws {
        let lint = try await Self.lint()
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stdout.contains("examples/load/lint: OK"))
        // The Job is an Indexed Job of as many completions as TCPPROBE_PARTS, each pod a part.
        let job = try String(contentsOf: Self.folder.appendingPathComponent("indexed-job.yaml"), encoding: .utf8)
        #expect(job.contains("completionMode: Indexed") && job.contains("completions: 4") && job.contains("value: \"4\""))
        #expect(job.contains("--part auto") && job.contains("JOB_COMPLETION_INDEX + 1"))
        let workflow = try String(contentsOf: Self.folder.appendingPathComponent("github-actions.yml"), encoding: .utf8)
        #expect(workflow.contains("part: [1, 2, 3, 4]") && workflow.contains("--part \"$PART/4\"") && workflow.contains("tcpprobe\" merge part-*.json"))
    }

    @Test func aBrokenJobOrWorkflowIsRefused() async throws {
        try await ProbeProcess.inDirectory(holding: [:]) { directory in
            let job = try String(contentsOf: Self.folder.appendingPathComponent("indexed-job.yaml"), encoding: .utf8)
            let workflow = Self.folder.appendingPathComponent("github-actions.yml").path
            let misspelt = directory.appendingPathComponent("misspelt.yaml")
            try job.replacing("completionMode: Indexed", with: "completionMod: Indexed").write(to: misspelt, atomically: true, encoding: .utf8)
            let refused = try await Self.lint([misspelt.path, workflow])
            #expect(refused.status != 0)
            #expect((refused.stdout + refused.stderr).contains("'completionMod' was unexpected"))
            let wrongType = directory.appendingPathComponent("wrong-type.yaml")
            try job.replacing("completions: 4", with: "completions: four").write(to: wrongType, atomically: true, encoding: .utf8)
            #expect(try await Self.lint([wrongType.path, workflow]).status != 0)
            let brokenWorkflow = directory.appendingPathComponent("broken.yml")
            let text = try String(contentsOfFile: workflow, encoding: .utf8)
            try text.replacing("runs-on: ubuntu-latest", with: "runs-on: [").write(to: brokenWorkflow, atomically: true, encoding: .utf8)
            #expect(try await Self.lint([Self.folder.appendingPathComponent("indexed-job.yaml").path, brokenWorkflow.path]).status != 0)
        }
    }
}
