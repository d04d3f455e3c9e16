import ArgumentParser
import Foundation
import ProbeCapture
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

    @Flag(help: "Capture every scenario's traffic, not only those with `assert wire` or `set capture on`.")
    var capture = false

    @Option(help: "The interface to capture on.")
    var interface = "lo"

    @Option(help: "Where pcap files are written (default: $TMPDIR/tcpprobe-pcap).")
    var pcapDir: String?

    @Option(help: "Which pcap files to keep: always, failed or never.")
    var keepPcap: CaptureSettings.Keep = .failed

    @Option(help: "The capture's kernel buffer, e.g. 256MiB: larger holds longer bursts without drops.")
    var captureBuffer = "256MiB"

    @Flag(help: "Fail with exit code 3 when capture is not permitted, instead of skipping wire assertions.")
    var requireCapture = false

    @Flag(name: .shortAndLong, help: "Print the step log of passing scenarios too.")
    var verbose = false

    func validate() throws {
        guard let size = Quantity.size(captureBuffer), size >= 1_048_576 else {
            throw ValidationError("--capture-buffer takes a size of at least 1MiB, such as 256MiB")
        }
        guard sweepLimit >= 1 else { throw ValidationError("--sweep-limit must be at least 1") }
    }

    func run() async throws {
        SignalHandling.install()
        SignalHandling.raiseFileLimit()
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
        let runner = ScenarioRunner(options: RunOptions(variables: variables, seed: seed, sweepLimit: sweepLimit,
                                                    capture: CaptureSettings(always: capture, interface: interface, directory: pcapDir,
                                                                             keep: keepPcap, required: requireCapture,
                                                                             bufferSize: Quantity.size(captureBuffer) ?? PcapCapture.defaultBufferSize)))
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

extension CaptureSettings.Keep: ExpressibleByArgument {}
