import Foundation
import Testing

/// mutation/rules.md scores the tests by the contract's rules: every judging file the operator
/// campaign targets (mutation/run's TARGETS) has its rules listed there, and every test the list
/// names exists, so a file added or a test renamed cannot leave the list behind.
@Suite struct MutationRulesTests {
    static let root = ProbeProcess.fixtures.deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The files a `## ` heading lists: "Sources/A/B.swift, C.swift" is B and A/C.
    static func listedFiles(_ rules: String) -> Set<String> {
        var files: Set<String> = []
        for heading in rules.split(separator: "\n") where heading.hasPrefix("## Sources/") {
            var folder = ""
            for name in heading.dropFirst(3).split(separator: " ").map({ $0.trimmingCharacters(in: CharacterSet(charactersIn: ",()")) })
            where name.hasSuffix(".swift") {
                if name.contains("/") { folder = String(name[..<name.lastIndex(of: "/")!]) }
                files.insert(name.contains("/") ? name : folder + "/" + name)
            }
        }
        return files
    }

    @Test func everyTargetedFileHasItsRules() throws {
        let targets = try Self.text("mutation/run").matches(of: #/^\s+"(Sources/[^"]+\.swift)": /#.anchorsMatchLineEndings()).map { String($0.1) }
        #expect(targets.count >= 40, "mutation/run targets \(targets.count) files")
        let listed = Self.listedFiles(try Self.text("mutation/rules.md"))
        let missing = targets.filter { !listed.contains($0) }
        #expect(missing.isEmpty, "judging files without rules in mutation/rules.md: \(missing)")
    }

    @Test func everyTestTheRulesNameExists() throws {
        let tests = try FileManager.default.subpathsOfDirectory(atPath: Self.root.appendingPathComponent("Tests").path)
            .filter { $0.hasSuffix(".swift") }
            .map { try Self.text("Tests/" + $0) }.joined(separator: "\n")
        let declared = Set(tests.matches(of: #/(?:func|struct|class|extension) (\w+)/#).map { String($0.1) })
        let rules = try Self.text("mutation/rules.md")
        // Test names in backticks: `Suite.test`, `Suite`, or a camel-case `test` of the suite named before.
        let named = rules.matches(of: #/`([A-Za-z]\w*(?:\.\w+)?)`/#).map { String($0.1) }
            .filter { $0.contains("Tests") || $0.first!.isLowercase && $0.contains(where: \.isUppercase) }
        #expect(named.count >= 100, "mutation/rules.md names \(named.count) tests")
        let unknown = named.filter { !$0.split(separator: ".").allSatisfy { declared.contains(String($0)) } }
        #expect(unknown.isEmpty, "tests named in mutation/rules.md that do not exist: \(unknown)")
    }
}
