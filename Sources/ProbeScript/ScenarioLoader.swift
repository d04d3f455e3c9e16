/// Loads a scenario file: parses it, splices in its includes (relative to the including file),
/// and checks its variables. Every problem of every file involved is collected.
package struct ScenarioLoader {
    /// Reads a file's text; throws a message when it cannot.
    package typealias FileReader = (String) throws -> String

    package struct Result: Sendable {
        package var scenario: Scenario?
        package var diagnostics: [Diagnostic]
        package var sources: [SourceFile]
    }

    private let read: FileReader
    private let includes: ParsedIncludes?
    private let predefinedVariables: Set<String>
    /// The given values that name variables themselves, by the variable they set.
    private let givenTemplates: [String: Template]
    private var sources: [SourceFile] = []
    private var diagnostics: [Diagnostic] = []
    private var tags: [String] = []

    /// `predefinedVariables` are known without a value here; `given` are the values from outside
    /// the scenario (`--var` and the like), whose own `{name}`s are checked where they are used.
    /// `includes` keeps the included files parsed for the loads that share it.
    package init(predefinedVariables: Set<String> = [], given: [String: String] = [:], includes: ParsedIncludes? = nil, read: @escaping FileReader) {
        self.read = read
        self.includes = includes
        self.predefinedVariables = predefinedVariables.union(given.keys)
        self.givenTemplates = Template.given(given)
    }

    /// Loads `path`; the scenario is nil when any error was found.
    package static func load(_ path: String, predefinedVariables: Set<String> = [], given: [String: String] = [:], includes: ParsedIncludes? = nil,
                             read: @escaping FileReader) -> Result {
        var loader = ScenarioLoader(predefinedVariables: predefinedVariables, given: given, includes: includes, read: read)
        return loader.load(path)
    }

    private mutating func load(_ path: String) -> Result {
        let text: String
        do {
            text = try read(path)
        } catch {
            let diagnostic = Diagnostic(at: SourceLocation(file: path, line: 1, column: 1), "cannot read scenario: \(error)")
            return Result(scenario: nil, diagnostics: [diagnostic], sources: [])
        }
        let parsed = parse(SourceFile(path: path, text: text))
        let (statements, networkDiagnostics) = NetworkFaultResolver.resolve(splice(parsed.statements, includedFrom: [path]))
        diagnostics += networkDiagnostics
        diagnostics += VariableChecker.check(statements, predefined: predefinedVariables, given: givenTemplates)
        diagnostics += SendChecker.check(statements)
        diagnostics += ParallelAssertionChecker.check(statements)
        let title = parsed.title.map { $0.renderString { "{\($0)}" } } ?? ScenarioLoader.defaultTitle(path)
        let hasErrors = diagnostics.contains { $0.severity == .error }
        let scenario = hasErrors ? nil : Scenario(path: path, title: title, tags: tags, statements: statements, sources: sources)
        return Result(scenario: scenario, diagnostics: diagnostics, sources: sources)
    }

    private mutating func parse(_ source: SourceFile) -> ParsedFile {
        let parsed = Parser.parse(source)
        take(parsed)
        return parsed
    }

    /// Keeps a parsed file's source, diagnostics and tags.
    private mutating func take(_ parsed: ParsedFile) {
        sources.append(parsed.source)
        diagnostics += parsed.diagnostics.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
        tags += parsed.tags.filter { !tags.contains($0) }
    }

    /// Replaces each `include` with the statements of the file it names.
    private mutating func splice(_ statements: [Statement], includedFrom chain: [String]) -> [Statement] {
        var out: [Statement] = []
        for var statement in statements {
            switch statement.kind {
            case .include(let relative):
                let path = ScenarioLoader.resolve(relative, from: statement.location.file)
                if let start = chain.firstIndex(of: path) {
                    let cycle = (chain[start...] + [path]).joined(separator: " -> ")
                    diagnostics.append(Diagnostic(at: statement.location, length: statement.text.count, "include cycle: \(cycle)"))
                    continue
                }
                if let parsed = includes?[path] {
                    take(parsed)
                    out += splice(parsed.statements, includedFrom: chain + [path])
                    continue
                }
                let text: String
                do {
                    text = try read(path)
                } catch {
                    diagnostics.append(Diagnostic(at: statement.location, length: statement.text.count,
                                                  "cannot include '\(relative)': \(error)",
                                                  hint: ScenarioLoader.isPiped(statement.location.file) ? "a piped scenario's paths are relative to the current directory"
                                                                                         : "paths are relative to \(statement.location.file)"))
                    continue
                }
                let parsed = parse(SourceFile(path: path, text: text))
                includes?[path] = parsed
                out += splice(parsed.statements, includedFrom: chain + [path])
            case .repeatBlock(let count, let body, let untilClosed):
                statement = statement.with(kind: .repeatBlock(count, body: splice(body, includedFrom: chain), untilClosed: untilClosed))
                out.append(statement)
            case .parallel(let count, let body):
                statement = statement.with(kind: .parallel(count, body: splice(body, includedFrom: chain)))
                out.append(statement)
            case .nonStrict(let body, let skip):
                statement = statement.with(kind: .nonStrict(body: splice(body, includedFrom: chain), skip: skip))
                out.append(statement)
            default:
                out.append(statement)
            }
        }
        return out
    }

    /// `relative` resolved against the directory of `file`, with `.` and `..` folded. A scenario
    /// that came through a pipe has no directory of its own: its paths are relative to the
    /// current directory.
    package static func resolve(_ relative: String, from file: String) -> String {
        if relative.hasPrefix("/") { return normalise(relative) }
        guard !isPiped(file), let slash = file.lastIndex(of: "/") else { return normalise(relative) }
        return normalise(String(file[...slash]) + relative)
    }

    /// Whether `file` names standard input or a file descriptor (`tcpprobe run <(generate)`).
    static func isPiped(_ file: String) -> Bool {
        file == "/dev/stdin" || file.hasPrefix("/dev/fd/") || file.hasPrefix("/proc/self/fd/")
    }

    /// The path with `.` and `..` folded and repeated slashes removed.
    package static func normalise(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// The file's base name without `.scn`.
    package static func defaultTitle(_ path: String) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        return base.hasSuffix(".scn") ? String(base.dropLast(4)) : base
    }
}
