import Foundation
import Testing
import TestSupport

/// Every example in the README and docs/*.md: each `scn` block passes `tcpprobe check`, the
/// complete scenarios (`scn run`) pass `tcpprobe run`, and the `sh run` blocks exit 0 under
/// bash, with tcpprobe and linechat on PATH and `PORT` a free port. Each runs in a folder of
/// its own holding docs/examples' files. (Plain `sh` blocks install or grant: they are not run.)
@Suite struct DocsExamplesTests {
    static let root = ProbeProcess.fixtures.deletingLastPathComponent().deletingLastPathComponent()
    static let pages = ["README.md"] + ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? [])
        .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }

    /// An example block: its page and first line, how it is tested, and its text.
    struct Example: CustomTestStringConvertible, Sendable {
        enum Kind: String, Sendable { case check = "scn", run = "scn run", shell = "sh run" }
        var page: String
        var line: Int
        var kind: Kind
        var text: String
        var testDescription: String { "\(page):\(line) (\(kind.rawValue))" }
    }

    static let examples: [Example] = pages.flatMap { page -> [Example] in
        guard let text = try? String(contentsOf: root.appendingPathComponent(page), encoding: .utf8) else { return [] }
        var examples: [Example] = []
        var open: Example?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var example = open {
                if line == "```" {
                    examples.append(example)
                    open = nil
                } else {
                    example.text += line + "\n"
                    open = example
                }
            } else if line.hasPrefix("```"), let kind = Example.Kind(rawValue: String(line.dropFirst(3))) {
                open = Example(page: page, line: index + 1, kind: kind, text: "")
            }
        }
        return examples
    }

    @Test func everyStatementTheGrammarPrintsIsInTheLanguagePage() async throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/language.md"), encoding: .utf8)
        let grammar = try await ProbeProcess.run(["grammar"])
        let leading = grammar.stdout.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard let first = words.first, first.first?.isLetter == true else { return nil }
            let two = ["set", "expect", "assert", "send"].contains(String(first)) && words.count > 1
            return (two ? "\(first) \(words[1])" : String(first)).split(whereSeparator: { $0 == "\"" || $0 == "|" }).first.map(String.init) ?? ""
        }
        #expect(leading.count > 30)
        for words in Set(leading) where !words.isEmpty { #expect(page.contains(words), "docs/language.md never mentions `\(words)`") }
    }

    @Test func everyPageHasExamplesAndTheCookbookRunsEachRecipe() {
        for page in ["README.md", "docs/language.md", "docs/cookbook.md", "docs/ci.md", "docs/capture.md"] {
            #expect(Self.examples.contains { $0.page == page }, "\(page) has no tested example")
        }
        let recipes = Self.examples.filter { $0.page == "docs/cookbook.md" }
        #expect(recipes.count >= 8 && recipes.allSatisfy { $0.kind != .check }, "every recipe runs")
    }

    /// A `console` block: a command after `$ ` and what it printed, as the README shows it.
    static let transcripts: [(page: String, command: String, output: String)] = pages.flatMap { page in
        let text = (try? String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)) ?? ""
        return text.components(separatedBy: "```console\n").dropFirst().compactMap { block -> (page: String, command: String, output: String)? in
            let lines = block.components(separatedBy: "\n```")[0].split(separator: "\n", omittingEmptySubsequences: false)
            guard let first = lines.first, first.hasPrefix("$ ") else { return nil }
            return (page, String(first.dropFirst(2)), lines.dropFirst().joined(separator: "\n") + "\n")
        }
    }

    /// Times, ports, pids and file names vary from run to run: every run of digits is N.
    static func normalised(_ text: String) -> String {
        text.replacing(try! Regex("[0-9]+(\\.[0-9]+)?"), with: "N")
    }

    @Test(.root) func theTranscriptsShowWhatTheCommandsPrint() async throws {
        #expect(!Self.transcripts.isEmpty)
        for transcript in Self.transcripts {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-doc-\(UUID())")
            try FileManager.default.copyItem(at: Self.root.appendingPathComponent("docs/examples"), to: directory)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = ProbeProcess.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let ran = try await ProbeProcess.run(["-c", transcript.command], in: directory, environment: ["PATH": path],
                                                 executable: URL(fileURLWithPath: "/bin/bash"))
            #expect(Self.normalised(ran.stdout + ran.stderr) == Self.normalised(transcript.output),
                    "\(transcript.page): `\(transcript.command)` now prints:\n\(ran.stdout)\(ran.stderr)")
        }
    }

    /// One example at a time, and none beside a heavy test: some are timed (a lossy link's
    /// retries within a step's timeout, a capture that must hold every segment).
    @Test(.root, .serialized, .timed, arguments: examples)
    func theExampleWorks(_ example: Example) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-doc-\(UUID())")
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("docs/examples"), to: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        if example.kind == .shell {
            let path = ProbeProcess.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let ran = try await ProbeProcess.run(["-euo", "pipefail", "-c", example.text], in: directory,
                                                 environment: ["PATH": path, "PORT": String(try LoopbackSocket.closedPort())],
                                                 executable: URL(fileURLWithPath: "/bin/bash"))
            #expect(ran.status == 0, "\(example.testDescription):\n\(ran.stdout)\(ran.stderr)")
            return
        }
        try Data(example.text.utf8).write(to: directory.appendingPathComponent("example.scn"))
        let variables = example.kind == .run ? [] : ["--var", "port=7000", "--var", "host=127.0.0.1"]
        let checked = try await ProbeProcess.run(["check"] + variables + ["example.scn"], in: directory)
        #expect(checked.status == 0, "\(example.testDescription):\n\(checked.stderr)")
        guard example.kind == .run else { return }
        let ran = try await ProbeProcess.run(["run", "example.scn"], in: directory)
        #expect(ran.status == 0, "\(example.testDescription):\n\(ran.stdout)\(ran.stderr)")
    }

}
