import FoundationEssentials
import ProbeHost
import ProbeScript

/// Finds and loads the scenarios named on the command line.
package struct ScenarioCatalog {
    package var scenarios: [Scenario] = []
    package var diagnostics: [Diagnostic] = []
    package var sources: [SourceFile] = []

    /// Loads every scenario of `paths`. Directories expand recursively to `*.scn` in name order;
    /// a file found that way which another scenario includes is a fragment, not a scenario.
    package static func load(_ paths: [String], variables: [String: String]) throws -> ScenarioCatalog {
        var catalog = ScenarioCatalog()
        var fromDirectories = Set<String>()
        var files: [String] = []
        for path in paths {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CatalogError.missing(path)
            }
            if isDirectory {
                let found = scenarioFiles(under: path)
                fromDirectories.formUnion(found)
                files += found
            } else {
                files.append(ScenarioLoader.normalise(path))
            }
        }
        let loaded = loadEach(files, variables: variables)
        let included = Set(loaded.flatMap { $0.sources.dropFirst().map(\.path) })
        for (file, result) in zip(files, loaded) where !(fromDirectories.contains(file) && included.contains(file)) {
            catalog.diagnostics += result.diagnostics
            catalog.sources += result.sources
            if let scenario = result.scenario { catalog.scenarios.append(scenario) }
        }
        return catalog
    }

    /// Each of `files` loaded, in their order; on every core at once when there are enough of
    /// them to pay for the threads (the HTTP/2 suite's 147 files took 9.3 ms on one core).
    private static func loadEach(_ files: [String], variables: [String: String]) -> [ScenarioLoader.Result] {
        let includes = ParsedIncludes()
        return files.concurrentMap(from: parallelFrom) { ScenarioLoader.load($0, given: variables, includes: includes, read: readFile) }
    }

    /// From this many files on, they load in parallel.
    package static let parallelFrom = 8

    /// The files under `directory`, recursively, whose names end in one of `suffixes`, in name order.
    package static func scenarioFiles(under directory: String, suffixes: [String] = [".scn"]) -> [String] {
        let relatives = (try? FileManager.default.subpathsOfDirectory(atPath: directory)) ?? []
        return relatives.filter { name in suffixes.contains { name.hasSuffix($0) } }.map { ScenarioLoader.normalise(directory + "/" + $0) }.sorted()
    }

    /// A scenario file's text, or why it cannot be read.
    package static func readFile(_ path: String) throws -> String {
        let bytes: [UInt8]
        do { bytes = try WholeFile.bytes(atPath: path) } catch let error as WholeFile.Unreadable {
            throw CatalogError.unreadable(path, reason: error.reason)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw CatalogError.notUTF8(path) }
        return text
    }
}
