import ProbeResults
import Testing

/// A value given from outside that names variables is expanded where it is used, with the
/// values they hold then; once the scenario sets the variable itself, its own value holds.
@Suite struct GivenValueTests {
    @Test func aGivenValueIsExpandedWhereItIsUsed() async throws {
        let result = try await ScenarioHarness.run("""
            var port = free-port
            spawn first "echo n=1"
            expect stdout first line /n=(?<n>\\d)/
            spawn a "echo {greeting}"
            expect stdout a line "hello 1 on {port}"
            spawn second "echo n=2"
            expect stdout second line /n=(?<n>\\d)/
            spawn b "echo {greeting}"
            expect stdout b line "hello 2 on {port}"
            spawn braces "echo \\{n\\}"
            expect stdout braces line /(?<greeting>.*)/
            spawn c "echo {greeting}"
            expect stdout c line "\\{n\\}"
            """, variables: ["greeting": "hello {n} on {port}"])
        result.expectPassed()
    }

    @Test func aGivenValueWinsOverTheDefaultAndTakesItsNamesFromTheFile() async throws {
        let text = """
            var host = "127.0.0.1"
            var command = "echo default {host}"
            spawn s "{command}"
            expect stdout s line "given 127.0.0.1"
            """
        try await ScenarioHarness.run(text, variables: ["command": "echo given {host}"]).expectPassed()
        try await ScenarioHarness.run(text).expectFailure(line: 4, containing: "default 127.0.0.1")
    }
}
