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

    /// `.:` crashed the parser (an empty name split into nothing); `a.:` passed as a name.
    @Test func aPrefixWithAnEmptyPartIsAnError() {
        for (text, name) in [(".: send text \"ping\"", "."), ("a.: send line \"x\"", "a."), ("a.2: send line \"x\"", nil)] {
            let result = ScenarioLoader.load("t.scn") { _ in text + "\n" }
            let rendered = DiagnosticRenderer(sources: result.sources).render(result.diagnostics)
            if let name {
                #expect(rendered.contains("t.scn:1:1: error: '\(name)' is not a valid connection name"), "\(rendered)")
            } else {
                #expect(!rendered.contains("not a valid connection name"), "\(rendered)")
            }
        }
    }

    @Test func crlfFilesQuoteTheRightLine() {
        let source = SourceFile(path: "t.scn", text: "close\r\nsned \"x\"\r\nabort\r\n")
        #expect(source.line(2) == "sned \"x\"")
        let result = ScenarioLoader.load("t.scn") { _ in source.text }
        let rendered = DiagnosticRenderer(sources: result.sources).render(result.diagnostics)
        #expect(rendered.contains("t.scn:2:1: error: expected a statement, found 'sned'\n  hint: did you mean 'send'?\n  sned \"x\"\n  ^~~~"))
    }
}
