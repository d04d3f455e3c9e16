import Foundation
import Testing

/// The TextMate grammar under editors/ is the one the parser's table generates, is valid JSON,
/// covers every keyword `tcpprobe grammar` prints, and highlights what it should.
@Suite struct EditorGrammarTests {
    static let committed = ProbeProcess.fixtures.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("editors/vscode/syntaxes/scn.tmLanguage.json")

    @Test func theCommittedGrammarIsTheGeneratedOne() async throws {
        let generated = try await ProbeProcess.run(["grammar", "--textmate"])
        let text = try String(contentsOf: Self.committed, encoding: .utf8)
        #expect(generated.stdout == text, "regenerate: tcpprobe grammar --textmate > editors/vscode/syntaxes/scn.tmLanguage.json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let patterns = try #require(json["patterns"] as? [[String: String]])
        let keywords = try #require(patterns.first { $0["name"] == "keyword.other.scn" }?["match"])
        // Every lowercase word the grammar prints outside its parenthesised notes is a keyword.
        let reference = try await ProbeProcess.run(["grammar"])
        for line in reference.stdout.split(separator: "\n") where !line.hasPrefix("(") {
            let syntax = line.split(separator: "(").first ?? ""
            for word in syntax.split(whereSeparator: { !($0.isLowercase || $0 == "-" || $0.isNumber) }) where word.count > 1 && word.first!.isLetter {
                #expect(keywords.contains(word.replacing("-", with: "\\-")), "'\(word)' is not highlighted")
            }
        }
        let keyword = try Regex(keywords)
        #expect("c: expect line \"x\"".contains(keyword) && !"expected".contains(keyword))
        #expect("sent".firstMatch(of: keyword) == nil && "send".firstMatch(of: keyword) != nil)
        for pattern in patterns { _ = try Regex(try #require(pattern["match"])) }
    }
}
