import ArgumentParser
import FoundationEssentials
import ProbeRunner
import ProbeScript
#if canImport(Glibc)
import Glibc
#endif

/// `tcpprobe fmt`: rewrites scenario files in the canonical layout, or with `--check` says
/// which are not in it.
struct FormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fmt",
        abstract: "Rewrite scenario files in the canonical layout (comments kept, meaning unchanged).",
        discussion: """
        Directories expand recursively to *.scn and *.inc files; '-' formats standard input to \
        standard output. Exit codes: 0 done (or, with --check, nothing to change), 1 --check found \
        files to change (their diffs are printed), 2 a file has errors (or cannot be read) and is left as it is.
        """
    )

    @ArgumentParser.Argument(help: "Scenario files (.scn, .inc) or directories; '-' for standard input.")
    var paths: [String]

    @Flag(help: "Change nothing: print a diff for each file that is not in the canonical layout, and exit 1 if any.")
    var check = false

    func run() throws {
        var invalid = 0, changed = 0, unchanged = 0
        for path in try files() {
            let original: String, formatted: String
            do {
                original = try ScenarioCatalog.readFile(path == "-" ? "/dev/stdin" : path)
            } catch {
                Terminal.printError("\(error)")
                invalid += 1
                continue
            }
            do {
                formatted = try ScenarioFormatter.format(SourceFile(path: path == "-" ? "<stdin>" : path, text: original))
            } catch .invalid(let diagnostics) {
                let renderer = DiagnosticRenderer(sources: [SourceFile(path: path, text: original)], useColour: Terminal.useColour(.auto, fileDescriptor: 2))
                for diagnostic in diagnostics { Terminal.printError(renderer.render(diagnostic)) }
                invalid += 1
                continue
            } catch .meaningChanged {
                Terminal.printError("\(path): left unchanged: its canonical layout would parse differently (a bug in tcpprobe fmt; please report it with the file)")
                invalid += 1
                continue
            }
            if path == "-" {
                if check, formatted != original { changed += 1; print(diff(original, formatted, path: "<stdin>"), terminator: "") }
                else if !check { print(formatted, terminator: "") }
                continue
            }
            guard formatted != original else { unchanged += 1; continue }
            changed += 1
            if check {
                print(diff(original, formatted, path: path), terminator: "")
            } else {
                try write(formatted, to: path)
            }
        }
        if !paths.contains("-") || paths.count > 1 {
            let verb = check ? "would be reformatted" : "reformatted"
            Terminal.printError("\(changed.counted("file")) \(verb), \(unchanged) unchanged" + (invalid > 0 ? ", \(invalid) with errors" : ""))
        }
        if invalid > 0 { throw ExitCode.invalidInput }
        if check, changed > 0 { throw ExitCode.failure }
    }

    /// The files the paths name, directories expanded to their .scn and .inc files in name order.
    func files() throws -> [String] {
        try paths.flatMap { path -> [String] in
            if path == "-" { return [path] }
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw CatalogError.missing(path) }
            return isDirectory ? ScenarioCatalog.scenarioFiles(under: path, suffixes: [".scn", ".inc"]) : [path]
        }
    }

    func diff(_ original: String, _ formatted: String, path: String) -> String {
        func lines(_ text: String) -> [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }
        return UnifiedDiff(old: lines(original), new: lines(formatted)).render(oldLabel: "a/\(path)", newLabel: "b/\(path)")
    }

    /// Replaces the file at once (a new file renamed over it), keeping its permissions.
    func write(_ text: String, to path: String) throws {
        var status = stat()
        let mode = stat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        if let mode { chmod(path, mode) }
    }
}
