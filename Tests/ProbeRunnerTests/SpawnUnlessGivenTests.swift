import ProbeResults
import Testing

/// `spawn … unless given VAR`: a suite's default subject starts only when the user gave no
/// value of their own for VAR.
@Suite struct SpawnUnlessGivenTests {
    private let scenario = """
        var port = free-port
        var url = "tcp://127.0.0.1:{port}"
        spawn server "sh -c 'echo started; echo hello; sleep 5'" ready when stdout /started/ unless given url
        expect stdout server line "hello" within 2s
        """

    @Test func theSubjectStartsWhenNothingIsGiven() async throws {
        let result = try await ScenarioHarness.run(scenario)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("spawned 'server'") })
    }

    @Test func aGivenValueKeepsItFromStarting() async throws {
        let result = try await ScenarioHarness.run(scenario, variables: ["url": "ws://example.invalid/"])
        #expect(result.log.contains { $0.message == "'server' not spawned: url is given (unless given url)" }, "\(result.log.map(\.message))")
        // Nothing started, so nothing of it can be expected.
        result.expectFailure(line: 4, containing: "'server'")
    }
}
