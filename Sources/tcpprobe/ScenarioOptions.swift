import ArgumentParser

/// Options shared by the commands that load scenarios.
struct ScenarioOptions: ParsableArguments {
    @Argument(help: "Scenario files, or directories searched recursively for *.scn files.")
    var paths: [String]

    @Option(name: .customLong("var"), help: ArgumentHelp("Define or override a variable.", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(help: "Colour: auto (on a terminal, unless NO_COLOR is set), always or never.")
    var color: ColourChoice = .auto

    func validate() throws {
        _ = try parsedVariables()
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
