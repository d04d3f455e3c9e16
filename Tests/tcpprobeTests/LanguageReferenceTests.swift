import Foundation
import Testing

/// docs/language.md, the user's reference: every `scn` example block in it passes
/// `tcpprobe check`, and the complete scenarios (`scn run`) pass `tcpprobe run`.
@Suite struct LanguageReferenceTests {
    static let page = ProbeProcess.fixtures.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/language.md")

    /// An example block: its first line in the page, whether it runs, and its text.
    struct Example: CustomTestStringConvertible, Sendable {
        var line: Int
        var runs: Bool
        var text: String
        var testDescription: String { "docs/language.md:\(line)" + (runs ? " (runs)" : "") }
    }

    static let examples: [Example] = {
        guard let page = try? String(contentsOf: page, encoding: .utf8) else { return [] }
        var examples: [Example] = []
        var open: Example?
        for (index, line) in page.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var example = open {
                if line == "```" {
                    examples.append(example)
                    open = nil
                } else {
                    example.text += line + "\n"
                    open = example
                }
            } else if line == "```scn" || line == "```scn run" {
                open = Example(line: index + 1, runs: line.hasSuffix(" run"), text: "")
            }
        }
        return examples
    }()

    @Test func everyStatementTheGrammarPrintsIsInThePage() async throws {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
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

    @Test func thereAreExamplesAndSomeRun() {
        #expect(Self.examples.count >= 10)
        #expect(Self.examples.contains { $0.runs })
    }

    @Test(arguments: examples)
    func theExampleIsValid(_ example: Example) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-doc-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(example.text.utf8).write(to: directory.appendingPathComponent("example.scn"))
        let variables = example.runs ? [] : ["--var", "port=7000", "--var", "host=127.0.0.1"]
        let checked = try await ProbeProcess.run(["check"] + variables + ["example.scn"], in: directory)
        #expect(checked.status == 0, "\(example.testDescription):\n\(checked.stderr)")
        guard example.runs else { return }
        let ran = try await ProbeProcess.run(["run", "example.scn"], in: directory)
        #expect(ran.status == 0, "\(example.testDescription):\n\(ran.stdout)\(ran.stderr)")
    }
}
