import ArgumentParser
import FoundationEssentials
import ProbeHost
import ProbeResults
import ProbeRunner
import ProbeScript

/// Options shared by the commands that load scenarios.
struct ScenarioOptions: ParsableArguments {
    @ArgumentParser.Argument(help: "Scenario files, or directories searched recursively for *.scn files.")
    var paths: [String]

    @Option(name: .customLong("var"), help: ArgumentHelp("Define or override a variable (wins over TCPPROBE_VAR_NAME and --vars-file).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(name: .customLong("vars-file"), help: ArgumentHelp("Variables from a file of NAME=VALUE lines ('#' comments); repeatable, later files win.", valueName: "FILE"))
    var variableFiles: [String] = []

    @Option(help: "Colour: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColourChoice = .auto

    /// Loads the scenarios the paths name and prints every diagnostic to stderr, rendered with
    /// the line and a caret; exits 2 when a path cannot be read, and leaves errors to the caller.
    func loadCatalog(variables: [String: String]) throws -> ScenarioCatalog {
        let catalog: ScenarioCatalog
        do {
            catalog = try ScenarioCatalog.load(paths, variables: variables)
        } catch let error as CatalogError {
            Terminal.printError("error: \(error)")
            throw ExitCode.invalidInput
        }
        let renderer = DiagnosticRenderer(sources: catalog.sources, useColour: Terminal.useColour(color, fileDescriptor: 2))
        for diagnostic in catalog.diagnostics { Terminal.printError(renderer.render(diagnostic)) }
        return catalog
    }

    /// The prefix of the environment variables that set scenario variables, as Hurl's `HURL_`.
    static let environmentPrefix = "TCPPROBE_VAR_"

    /// Every variable given from outside the scenarios: `--vars-file` lines, then the
    /// environment's `TCPPROBE_VAR_NAME` (the name taken as written), then `--var`, each winning
    /// over the one before. Called once, first thing: a file may be a pipe (`<(vault read …)`),
    /// which only one read sees.
    func parsedVariables() throws -> [String: String] {
        var result: [String: String] = [:]
        for file in variableFiles {
            let text: String
            do {
                text = String(decoding: try WholeFile.bytes(atPath: file), as: UTF8.self)
            } catch {
                throw ValidationError("--vars-file: \(error)")
            }
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let entry = line.hasSuffix("\r") ? line.dropLast() : line
                if entry.allSatisfy(\.isWhitespace) || entry.first == "#" { continue }
                guard let equals = entry.firstIndex(of: "="), entry.startIndex != equals else {
                    throw ValidationError("\(file):\(index + 1): expected NAME=VALUE, got '\(entry)'")
                }
                result[String(entry[..<equals].drop(while: \.isWhitespace))] = String(entry[entry.index(after: equals)...])
            }
        }
        for (name, value) in Self.environmentVariables { result[name] = value }
        for entry in variables {
            guard let equals = entry.firstIndex(of: "="), entry.startIndex != equals else {
                throw ValidationError("--var takes NAME=VALUE, got '\(entry)'")
            }
            result[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return result
    }

    /// The variables `TCPPROBE_VAR_NAME=value` in the environment set.
    static var environmentVariables: [String: String] {
        var found: [String: String] = [:]
        for (key, value) in ProcessInfo.processInfo.environment where key.hasPrefix(environmentPrefix) && key.count > environmentPrefix.count {
            found[String(key.dropFirst(environmentPrefix.count))] = value
        }
        return found
    }

    /// The values reports must not show: those of environment variables whose names end in
    /// `_SECRET` or `_TOKEN`.
    static var secrets: Redaction {
        Redaction(secrets: environmentVariables.filter { name, _ in
            let upper = name.uppercased()
            return upper.hasSuffix("_SECRET") || upper.hasSuffix("_TOKEN")
        }.map(\.value))
    }
}

enum ColourChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}
