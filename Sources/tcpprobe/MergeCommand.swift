import ArgumentParser
import FoundationEssentials
import ProbeHost
import ProbeMerge
import ProbeReport
import ProbeResults

/// `tcpprobe merge`: the JSON reports of a load's parts (`run --part K/N`) as one run.
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the JSON reports of a load's parts (run --part K/N) into one run, judging its assert copies and assert latency steps on the whole load."
    )

    @Argument(help: "The parts' JSON reports, all N of them.")
    var files: [String]

    @Option(name: .customLong("report"), help: ArgumentHelp("Write a report: junit, tap, json or html (repeatable).", valueName: "FORMAT=FILE"))
    var reports: [String] = []

    @Option(help: "Colour: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColourChoice = .auto

    @Flag(name: .shortAndLong, help: "Print the step log of passing scenarios too.")
    var verbose = false

    func validate() throws {
        for report in reports where ReportWriter.target(report) == nil {
            throw ValidationError("--report takes FORMAT=FILE with FORMAT one of \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")), got '\(report)'")
        }
    }

    func run() async throws {
        let report: RunReport
        do {
            let parts = try LoadMerge.read(files) { Data(try WholeFile.bytes(atPath: $0)) }
            report = try LoadMerge.merge(parts)
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode.invalidInput
        }
        let reporter = ConsoleReporter(useColour: Terminal.useColour(color), verbose: verbose)
        for result in report.results { print(reporter.render(result)) }
        print(reporter.summary(report))
        do {
            try ReportWriter.write(report, to: reports.compactMap(ReportWriter.target))
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode.environmentError
        }
        if report.errored > 0 { throw ExitCode.environmentError }
        if report.failed > 0 { throw ExitCode.scenarioFailed }
    }
}
