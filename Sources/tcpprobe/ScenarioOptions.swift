import ArgumentParser
import ProbeScript

/// Options shared by the commands that load scenarios.
struct ScenarioOptions: ParsableArguments {
    @ArgumentParser.Argument(help: "Scenario files, or directories searched recursively for *.scn files.")
    var paths: [String]

    @Option(name: .customLong("var"), help: ArgumentHelp("Define or override a variable.", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(help: "Colour: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColourChoice = .auto

    func validate() throws {
        _ = try parsedVariables()
    }

    /// Loads the scenarios the paths name and prints every diagnostic to stderr, rendered with
    /// the line and a caret; exits 2 when a path cannot be read, and leaves errors to the caller.
    func loadCatalog(variables: [String: String]) throws -> ScenarioCatalog {
        let catalog: ScenarioCatalog
        do {
            catalog = try ScenarioCatalog.load(paths, variables: Set(variables.keys))
        } catch let error as CatalogError {
            Terminal.printError("error: \(error)")
            throw ExitCode.invalidInput
        }
        let renderer = DiagnosticRenderer(sources: catalog.sources, useColour: Terminal.useColour(color, fileDescriptor: 2))
        for diagnostic in catalog.diagnostics { Terminal.printError(renderer.render(diagnostic)) }
        return catalog
    }

    func parsedVariables() throws -> [String: String] {
        var result: [String: String] = [:]
        for entry in variables {
            guard let equals = entry.firstIndex(of: "="), entry.startIndex != equals else {
                throw ValidationError("--var takes NAME=VALUE, got '\(entry)'")
            }
            result[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return result
    }
}

enum ColourChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}
