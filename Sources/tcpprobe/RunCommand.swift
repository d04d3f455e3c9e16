import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ProbeCapture
import ProbeHost
import ProbeReport
import ProbeResults
import ProbeRunner
import ProbeScript

/// `tcpprobe run`: runs scenarios and reports pass or fail for each.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenarios against the subjects they name."
    )

    @OptionGroup var scenarioOptions: ScenarioOptions
    @OptionGroup var load: LoadPartOptions

    @Option(name: .customLong("tag"), help: "Run only scenarios with this tag (repeatable).")
    var tags: [String] = []

    @Option(name: .customLong("skip-tag"), help: "Skip scenarios with this tag (repeatable).")
    var skippedTags: [String] = []

    @Option(name: .customLong("report"), help: ArgumentHelp("Write a report: junit, tap, json or html (repeatable).", valueName: "FORMAT=FILE"))
    var reports: [String] = []

    @Option(help: "Scenarios run at once (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Run only the K-th of N slices of the scenarios, for CI matrices.", valueName: "K/N"))
    var shard: String?

    @Flag(help: "Stop starting scenarios after the first failure.")
    var failFast = false

    @Option(name: .customLong("repeat"), help: "Run each scenario this many times (flake hunting).")
    var repetitions = 1

    @Flag(help: "List the selected scenarios without running them.")
    var list = false

    @Option(help: "Seed for `send random`, to reproduce a run.")
    var seed: UInt64?

    @Option(help: "At most this many runs for one `split sweep`; longer messages get sampled offsets.")
    var sweepLimit = 256

    @Flag(help: "Capture every scenario's traffic, not only those with `assert wire` or `set capture on`.")
    var capture = false

    @Option(help: "The interface to capture on.")
    var interface = "lo"

    @Option(help: "Where pcap files are written, 0600 in a folder of your own (default: $XDG_RUNTIME_DIR/tcpprobe, else /tmp/tcpprobe-UID, made 0700).")
    var pcapDir: String?

    @Option(help: "Which pcap files to keep: always, failed or never.")
    var keepPcap: CaptureSettings.Keep = .failed

    @Option(help: "The capture's kernel buffer, e.g. 128MiB: larger holds longer bursts before the run's traffic waits for it. One for the whole run, shared by its scenarios. Default: 32MiB (whole packets take twice that in memory), or 16MiB with --snaplen.")
    var captureBuffer: String?

    @Option(help: ArgumentHelp("Keep at most this many bytes of each captured packet (at least 160): headers and lengths for a bulk transfer, whose payloads then go unchecked. Default: whole packets.", valueName: "bytes"))
    var snaplen: Int?

    @Flag(help: "Fail with exit code 3 when capture is not permitted, instead of skipping wire assertions (the default when CI is set).")
    var requireCapture = false

    @Flag(help: "When CI is set, skip wire assertions that cannot capture (counted in the summary) instead of failing with exit code 3.")
    var allowSkippedWire = false

    @Flag(help: "Run every connection over TLS: each `connect` and `listen` without `tls` of its own gets it (a plaintext suite, run over TLS).")
    var tls = false

    @Option(help: "With --tls: the PEM file of CAs each `connect` verifies its server against (default: the system's roots).")
    var tlsCa: String?

    @Option(help: "With --tls: the certificate (PEM) each `listen` shows, with --tls-key (default: a certificate made at run time).")
    var tlsCert: String?

    @Option(help: "With --tls: the private key (PEM) of --tls-cert.")
    var tlsKey: String?

    @Flag(name: .shortAndLong, help: "Print the step log of passing scenarios too.")
    var verbose = false

    func validate() throws {
        if let captureBuffer, (Quantity.size(captureBuffer) ?? 0) < 1_048_576 {
            throw ValidationError("--capture-buffer takes a size of at least 1MiB, such as 32MiB")
        }
        if let snaplen, snaplen < PcapCapture.minimumSnapLength {
            throw ValidationError("--snaplen must be at least \(PcapCapture.minimumSnapLength), so that every header is kept whole")
        }
        if requireCapture, allowSkippedWire { throw ValidationError("--require-capture and --allow-skipped-wire contradict each other") }
        guard sweepLimit >= 1 else { throw ValidationError("--sweep-limit must be at least 1") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard repetitions >= 1 else { throw ValidationError("--repeat must be at least 1") }
        if !tls, tlsCa != nil || tlsCert != nil || tlsKey != nil { throw ValidationError("--tls-ca, --tls-cert and --tls-key go with --tls") }
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
        if let shard, Shard(shard) == nil { throw ValidationError("--shard takes K/N with 1 <= K <= N, got '\(shard)'") }
        for report in reports where ReportWriter.target(report) == nil {
            throw ValidationError("--report takes FORMAT=FILE with FORMAT one of \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")), got '\(report)'")
        }
    }

    /// What `--tls` gives each `connect` and `listen`: paths made absolute, as a scenario's
    /// own are read from its folder.
    private func defaultTLS() -> (client: TLSOptions, server: TLSOptions) {
        func file(_ path: String?) -> Template? {
            path.map { Template(literal: $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0) }
        }
        var client = TLSOptions()
        client.ca = file(tlsCa)
        var server = TLSOptions()
        server.certificate = file(tlsCert)
        server.key = file(tlsKey)
        return (client, server)
    }

    func run() async throws {
        var variables = try scenarioOptions.parsedVariables()
        let part = try load.loadPart()
        if let part {
            // {part} and {parts}, unless --var gave them: a part's own source range, say.
            variables["part"] = variables["part"] ?? "\(part.index)"
            variables["parts"] = variables["parts"] ?? "\(part.count)"
        }
        let (selected, skipped) = try selectScenarios(variables: variables)
        if list {
            for scenario in selected {
                print("\(scenario.path)\t\(scenario.title)" + (scenario.tags.isEmpty ? "" : "\t[\(scenario.tags.joined(separator: " "))]"))
            }
            return
        }
        let targets = reports.compactMap(ReportWriter.target)
        let progress = ProgressLine(total: selected.count * repetitions)
        var options = RunOptions(variables: variables, seed: seed, sweepLimit: sweepLimit,
                                 capture: CaptureSettings(always: capture, interface: interface, directory: pcapDir, keep: keepPcap,
                                                          required: requireCapture || (Self.underCI && !allowSkippedWire),
                                                          bufferSize: captureBuffer.flatMap(Quantity.size),
                                                          snapLength: min(snaplen ?? PcapCapture.fullSnapLength, PcapCapture.fullSnapLength)))
        options.recordWire = targets.contains { $0.format == .html }
        options.part = part
        if tls { options.defaultTLS = defaultTLS() }
        // Without a line to draw, steps are not told it: a round trip then pays no call for it.
        if progress.enabled { options.onStep = { path, step in progress.step(path, step) } }
        let redaction = ScenarioOptions.secrets
        let reporter = ConsoleReporter(useColour: Terminal.useColour(scenarioOptions.color), verbose: verbose)
        let session = RunSession(options: options, jobs: jobs, failFast: failFast, repetitions: repetitions)
        session.takeOverProcess { interruption in
            progress.stop()
            Terminal.printError("\ninterrupted: stopped subjects, flushed captures and reports")
            for note in redaction.apply(interruption.report).notes { Terminal.printError(note) }
            for path in interruption.keptCaptures { Terminal.printError("kept \(path)") }
            try? ReportWriter.write(redaction.apply(interruption.report), to: targets)
        }
        let late = try await load.holdUntilStart()
        if let late { Terminal.printError("--start-at: this part started \(DurationFormat.short(late)) late") }
        var (unredacted, notStarted) = await session.run(selected, skipping: skipped) { result in
            progress.finished {
                print(reporter.render(redaction.apply(result)))
                StandardOutput.flush()
            }
        }
        progress.stop()
        unredacted.part = part?.description
        if let late { unredacted.notes.append("--start-at: this part started \(DurationFormat.short(late)) late") }
        let report = redaction.apply(unredacted)
        for note in report.notes { Terminal.printError(note) }
        print(reporter.summary(report))
        if notStarted > 0 { print("--fail-fast: \(notStarted) scenario run(s) not started") }
        do {
            try ReportWriter.write(report, to: targets)
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode.environmentError
        }
        if report.errored > 0 { throw ExitCode.environmentError }
        if report.failed > 0 { throw ExitCode.scenarioFailed }
    }

    /// True when `CI` is set to anything but empty, `0` or `false`, as GitHub, GitLab and most
    /// CI systems set it: there a wire check that cannot run fails the run unless --allow-skipped-wire.
    static var underCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
        return !["", "0", "false"].contains(value)
    }

    /// The scenarios the paths, --tag and shard select, and those --skip-tag skips (with the
    /// reason, reported as skipped); exits 2 on invalid files or when nothing is selected.
    private func selectScenarios(variables: [String: String]) throws -> (run: [Scenario], skipped: [(scenario: Scenario, reason: String)]) {
        let catalog = try scenarioOptions.loadCatalog(variables: variables)
        if catalog.diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode.invalidInput }
        var selected = catalog.scenarios.filter { tags.isEmpty || !Set(tags).isDisjoint(with: $0.tags) }
        if let shard = shard.flatMap(Shard.init) { selected = shard.select(selected) }
        let skipped = selected.compactMap { scenario -> (scenario: Scenario, reason: String)? in
            scenario.tags.first(where: skippedTags.contains).map { (scenario, "--skip-tag \($0)") }
        }
        let run = selected.filter { Set(skippedTags).isDisjoint(with: $0.tags) }
        if run.isEmpty, shard == nil {
            let found = catalog.scenarios.count
            Terminal.printError(found == 0 ? "error: no scenario to run: no *.scn file in \(scenarioOptions.paths.joined(separator: ", "))"
                                           : "error: no scenario to run (\(found.counted("scenario")) found, none selected by --tag/--skip-tag)")
            throw ExitCode.invalidInput
        }
        return (run, skipped)
    }
}

extension CaptureSettings.Keep: ExpressibleByArgument {}
