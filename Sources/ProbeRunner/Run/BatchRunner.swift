import ProbeResults
import ProbeScript

/// Runs many scenarios, at most `jobs` at a time (those testing one given server one at a
/// time, unless the options say otherwise: `SharedSubjects`), and hands each result over in
/// input order.
package struct BatchRunner: Sendable {
    package let runner: ScenarioRunner
    package let jobs: Int
    /// Stop starting scenarios after the first failure (those not run are left out).
    package let failFast: Bool

    package init(runner: ScenarioRunner, jobs: Int, failFast: Bool) {
        self.runner = runner
        self.jobs = max(1, jobs)
        self.failFast = failFast
    }

    /// Runs `scenarios`, each `repetitions` times (reported as "title (run k/N)").
    package func run(_ scenarios: [Scenario], repetitions: Int = 1,
                    onResult: @escaping @Sendable (ScenarioResult) -> Void) async -> [ScenarioResult] {
        let work = scenarios.flatMap { scenario in (1...max(1, repetitions)).map { (scenario, $0) } }
        var stopped = false
        var results = [ScenarioResult?](repeating: nil, count: work.count)
        var finished = [Bool](repeating: false, count: work.count)
        var next = 0
        var delivered = 0
        let shared = SharedSubjects()
        let given = runner.options.variables
        let oneAtATime = runner.options.givenServerOneScenarioAtATime
        await withTaskGroup(of: (Int, ScenarioResult).self) { group in
            func launch() {
                guard next < work.count, !stopped else { return }
                let index = next
                next += 1
                let (scenario, run) = work[index]
                let key = oneAtATime ? SharedSubjects.key(of: scenario, given: given) : ""
                group.addTask {
                    var result = await shared.run(key) { await runner.run(scenario) }
                    if repetitions > 1 { result.title += " (run \(run)/\(repetitions))" }
                    return (index, result)
                }
            }
            for _ in 0..<min(jobs, work.count) { launch() }
            for await (index, result) in group {
                results[index] = result
                finished[index] = true
                // After a failure under --fail-fast no scenario starts; those running finish.
                if failFast, !result.outcome.passed { stopped = true }
                // Hand over in input order, as soon as every earlier one is done.
                while delivered < work.count, finished[delivered], let ready = results[delivered] {
                    onResult(ready)
                    delivered += 1
                }
                launch()
            }
        }
        return results.compactMap { $0 }
    }
}
