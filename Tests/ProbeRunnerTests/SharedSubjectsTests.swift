import Foundation
@testable import ProbeRunner
import ProbeScript
import Testing

/// Scenarios testing one server given to the run (`spawn … unless given url`, `--var url=…`)
/// run one at a time whatever `--jobs` says; scenarios starting subjects of their own do not.
@Suite struct SharedSubjectsTests {
    private func scenario(_ name: String, _ text: String) throws -> Scenario {
        let loaded = ScenarioLoader.load("\(name).scn", predefinedVariables: []) { _ in text }
        return try #require(loaded.scenario, "\(loaded.diagnostics)")
    }

    private static let onGivenServer = """
        var url = "none"
        spawn server "sleep 30" ready when stdout /never/ unless given url
        sleep 300ms
        """

    @Test func theKeyIsTheGivenServer() throws {
        let shared = try scenario("a", Self.onGivenServer)
        #expect(SharedSubjects.key(of: shared, given: [:]).isEmpty, "its own subject: no key")
        #expect(SharedSubjects.key(of: shared, given: ["url": "ws://x/"]) == "url=ws://x/")
        #expect(SharedSubjects.key(of: try scenario("b", "sleep 1ms"), given: ["url": "ws://x/"]).isEmpty)
    }

    /// Three scenarios of 300 ms on one given server, four jobs: one after another, so the
    /// batch takes at least 900 ms (a bound a busy machine cannot break).
    @Test func scenariosOnOneGivenServerRunOneAtATime() async throws {
        let scenarios = try (0..<3).map { try scenario("s\($0)", Self.onGivenServer) }
        let runner = BatchRunner(runner: ScenarioRunner(options: RunOptions(variables: ["url": "ws://127.0.0.1:1/"])), jobs: 4, failFast: false)
        let started = ContinuousClock.now
        let results = await runner.run(scenarios) { _ in }
        #expect(results.allSatisfy { $0.outcome.passed }, "\(results.map(\.outcome))")
        #expect(ContinuousClock.now - started >= .milliseconds(900))
    }
}
