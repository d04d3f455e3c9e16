import ArgumentParser
import Foundation
import ProbeReport
import ProbeRunner
import ProbeScript

/// `tcpprobe run`: runs scenarios and reports pass or fail for each.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenarios against the subjects they name."
    )

    @OptionGroup var scenarioOptions: ScenarioOptions

    @Option(name: .customLong("tag"), help: "Run only scenarios with this tag (repeatable).")
    var tags: [String] = []

    @Option(name: .customLong("skip-tag"), help: "Skip scenarios with this tag (repeatable).")
    var skippedTags: [String] = []

    @Option(help: "Seed for `send random`, to reproduce a run.")
    var seed: UInt64?

    @Option(help: "At most this many runs for one `split sweep`; longer messages get sampled offsets.")
    var sweepLimit = 256

    @Flag(name: .shortAndLong, help: "Print the step log of passing scenarios too.")
    var verbose = false

    func validate() throws {
        guard sweepLimit >= 1 else { throw ValidationError("--sweep-limit must be at least 1") }
    }

    func run() async throws {
        let variables = try scenarioOptions.parsedVariables()
        let catalog: ScenarioCatalog
        do {
            catalog = try ScenarioCatalog.load(scenarioOptions.paths, variables: Set(variables.keys))
        } catch let error as CatalogError {
            Terminal.printError("error: \(error)")
            throw ExitCode.invalidInput
        }
        if !catalog.diagnostics.isEmpty {
            let renderer = DiagnosticRenderer(sources: catalog.sources, useColour: Terminal.useColour(scenarioOptions.color, fileDescriptor: 2))
            for diagnostic in catalog.diagnostics { Terminal.printError(renderer.render(diagnostic)) }
            if catalog.diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode.invalidInput }
        }
        let selected = catalog.scenarios.filter { scenario in
            (tags.isEmpty || !Set(tags).isDisjoint(with: scenario.tags)) && Set(skippedTags).isDisjoint(with: scenario.tags)
        }
        if selected.isEmpty {
            Terminal.printError("error: no scenario to run (\(catalog.scenarios.count) found, none selected by --tag/--skip-tag)")
            throw ExitCode.invalidInput
        }
        let reporter = ConsoleReporter(useColour: Terminal.useColour(scenarioOptions.color), verbose: verbose)
        let runner = ScenarioRunner(options: RunOptions(variables: variables, seed: seed, sweepLimit: sweepLimit))
        let clock = ContinuousClock()
        let started = clock.now
        var results: [ScenarioResult] = []
        for scenario in selected {
            let result = await runner.run(scenario)
            print(reporter.render(result))
            results.append(result)
        }
        print(reporter.summary(results, elapsed: clock.now - started))
        let failures = results.compactMap { result -> StepFailure? in
            if case .failed(let failure) = result.outcome { return failure }
            return nil
        }
        if failures.contains(where: { $0.kind == .environment }) { throw ExitCode.environmentError }
        if !failures.isEmpty { throw ExitCode.scenarioFailed }
    }
}
