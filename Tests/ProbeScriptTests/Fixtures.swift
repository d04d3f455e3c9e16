import Foundation
import ProbeScript

/// Paths of the shared test fixtures, and loading scenarios from text.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    static func files(in subdirectory: String, ending suffix: String) -> [String] {
        let path = directory + "/" + subdirectory
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
            .map { path + "/" + $0 }
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Parses `text` as the file `name`, with `variables` given as if by --var.
    static func load(_ text: String, name: String = "test.scn", variables: Set<String> = [],
                     files: [String: String] = [:]) -> ScenarioLoader.Result {
        ScenarioLoader.load(name, predefinedVariables: variables) { path in
            if path == name { return text }
            guard let other = files[path] else { throw FixtureError.missing(path) }
            return other
        }
    }

    /// The statements of `text`, which must parse without error.
    static func statements(_ text: String, variables: Set<String> = ["host", "port"]) throws -> [Statement] {
        let result = load(text, variables: variables)
        guard let scenario = result.scenario else { throw FixtureError.invalid(result.diagnostics.map(\.description)) }
        return scenario.statements
    }
}

enum FixtureError: Error {
    case missing(String)
    case invalid([String])
}
