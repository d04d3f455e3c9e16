import Testing
import ProbeScript

/// Every input the fuzzer (fuzz/run) ever crashed on stays here as a fixture: it must load
/// without crashing and report its errors.
@Suite struct FuzzCrasherTests {
    static let crashers = Fixtures.files(in: "fuzz", ending: ".scn")

    @Test(arguments: crashers)
    func loadsWithoutCrashing(_ path: String) throws {
        let result = ScenarioLoader.load(path, predefinedVariables: ["host", "port"], read: Fixtures.read)
        let renderer = DiagnosticRenderer(sources: result.sources)
        for diagnostic in result.diagnostics { #expect(!renderer.render(diagnostic).isEmpty) }
    }

    @Test func crlfFilesQuoteTheRightLine() {
        let source = SourceFile(path: "t.scn", text: "close\r\nsned \"x\"\r\nabort\r\n")
        #expect(source.line(2) == "sned \"x\"")
        let result = ScenarioLoader.load("t.scn") { _ in source.text }
        let rendered = DiagnosticRenderer(sources: result.sources).render(result.diagnostics)
        #expect(rendered.contains("t.scn:2:1: error: expected a statement, found 'sned'\n  hint: did you mean 'send'?\n  sned \"x\"\n  ^~~~"))
    }
}
