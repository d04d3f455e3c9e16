import ProbeResults
import ProbeRunner
import ProbeScript
import Synchronization
import Testing

/// A whole run as the command line hands it over: skipped scenarios first, then the batch in
/// order, and what --fail-fast left unstarted.
@Suite struct RunSessionTests {
    private func scenario(_ path: String, _ text: String) throws -> Scenario {
        let loaded = ScenarioLoader.load(path, predefinedVariables: []) { _ in text }
        return try #require(loaded.scenario, "\(loaded.diagnostics)")
    }

    @Test func skippedComeFirstThenRunsInOrderUntilTheFirstFailure() async throws {
        let passing = try scenario("pass.scn", "sleep 1ms")
        let failing = try scenario("fail.scn", "set deadline 20ms\nsleep 200ms")
        let skipped = try scenario("skip.scn", "tags slow\nsleep 1ms")
        let session = RunSession(options: RunOptions(), jobs: 1, failFast: true, repetitions: 2)
        let seen = Mutex<[String]>([])
        let (report, notStarted) = await session.run([passing, failing, passing], skipping: [(skipped, "--skip-tag slow")]) { result in
            seen.withLock { $0.append(result.title) }
        }
        #expect(report.results.map(\.title) == ["skip", "pass (run 1/2)", "pass (run 2/2)", "fail (run 1/2)"])
        #expect(seen.withLock { $0 } == report.results.map(\.title), "each result is handed over as it is ready, in order")
        #expect(report.skipped == 1 && report.passed == 2 && report.failed == 1)
        #expect(report.results.first?.outcome.skipped == true)
        if case .skipped(let reason)? = report.results.first?.outcome { #expect(reason == "--skip-tag slow") }
        #expect(notStarted == 3, "the failing scenario's second run and both runs of the last one")
        #expect(!report.interrupted)
    }
}
