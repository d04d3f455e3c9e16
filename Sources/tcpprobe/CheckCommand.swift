import ArgumentParser
import ProbeScript

/// `tcpprobe check`: validates scenario files without running anything.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate scenario files: report every error of every file, run nothing."
    )

    @OptionGroup var scenarioOptions: ScenarioOptions

    func run() throws {
        let catalog = try scenarioOptions.loadCatalog(variables: try scenarioOptions.parsedVariables())
        let errors = catalog.diagnostics.filter { $0.severity == .error }.count
        if errors > 0 {
            Terminal.printError("\(errors.counted("error")) in \(Set(catalog.diagnostics.map(\.location.file)).count) file(s)")
            throw ExitCode.invalidInput
        }
        print("\(catalog.scenarios.count.counted("scenario")) OK")
    }
}
