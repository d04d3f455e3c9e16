import Testing
import ProbeScript

/// Every example block of shared/SCENARIO-LANGUAGE.md, copied into Tests/Fixtures/contract, must parse.
@Suite struct ContractExamplesTests {
    static let examples = Fixtures.files(in: "contract", ending: ".scn")

    @Test func thereAreExamples() {
        #expect(Self.examples.count >= 10)
    }

    @Test(arguments: examples)
    func exampleParses(_ path: String) {
        let result = ScenarioLoader.load(path, predefinedVariables: ["host", "port", "transport"], read: Fixtures.read)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description).joined(separator: "\n"))")
        #expect(result.scenario.map { !$0.statements.isEmpty } == true)
    }
}
