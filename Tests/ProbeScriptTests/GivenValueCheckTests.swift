import ProbeScript
import Testing

/// A value given from outside (`--var server="./my-server --port {port}"`) may name variables
/// itself: each name must be known where the value is used, and no values may name each other
/// in a cycle.
@Suite struct GivenValueCheckTests {
    private func load(_ text: String, given: [String: String]) -> ScenarioLoader.Result {
        ScenarioLoader.load("t.scn", given: given) { _ in text }
    }

    @Test func aNameInAGivenValueMustBeKnownWhereItIsUsed() {
        let text = """
            spawn s "{server}"
            var port = free-port
            spawn t "{server}"
            """
        let result = load(text, given: ["server": "./my-server --port {port}"])
        #expect(result.diagnostics.map(\.description)
            == ["t.scn:1:11: error: unknown variable 'port' in the value given for 'server' (declare it with 'var port = ...' or pass --var port=VALUE)"])
        #expect(load("var port = free-port\nspawn s \"{server}\"", given: ["server": "./my-server --port {prot}"]).diagnostics.first?.hint
            == "did you mean '{port}'?")
    }

    @Test func givenValuesMayNameEachOtherButNotInACycle() {
        let chained = load("spawn s \"{server}\"", given: ["server": "{binary} --port {port}", "binary": "./my-server", "port": "9"])
        #expect(chained.diagnostics.isEmpty && chained.scenario != nil)
        let cycle = load("spawn s \"{server}\"", given: ["server": "{binary} --port 9", "binary": "{server}"])
        #expect(cycle.diagnostics.map(\.message) == ["the given values name each other in a cycle: {server} -> {binary} -> {server}"])
        #expect(cycle.scenario == nil)
        let own = load("spawn s \"{server}\"", given: ["server": "again {server}"])
        #expect(own.diagnostics.map(\.message) == ["the given values name each other in a cycle: {server} -> {server}"])
    }

    @Test func aBraceAroundNoNameStaysAsWritten() {
        #expect(Template.given(["body": #"{"a": 1}"#, "quantifier": "x{3}", "plain": "text"]).isEmpty)
        #expect(Template.given(["server": "s {port}"])["server"]?.variables.map(\.name) == ["port"])
    }
}
