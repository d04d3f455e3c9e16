import ProbeRunner
import ProbeScript

/// What `tcpprobe h2spec` does: runs the HTTP/2 suite's cases that h2spec's arguments select
/// against one server, and keeps each case's verdict under h2spec's id.
package struct H2SpecRun: Sendable {
    package let options: H2SpecOptions
    package let suite: String
    package let catalog: H2SpecCatalog
    package let selection: H2SpecSelection
    package let jobs: Int

    package init(options: H2SpecOptions, suite: String, jobs: Int) throws {
        self.options = options
        self.suite = suite
        self.catalog = try H2SpecCatalog.load(suite: suite)
        self.selection = try H2SpecSelection(options.specs)
        self.jobs = jobs
    }

    /// The cases that run: selected, and strict ones only with `-S`, in h2spec's order.
    package var selectedCases: [H2SpecCatalog.Case] {
        catalog.cases.filter { (options.strict || !$0.strict) && selection.mode($0.id) == .all }
    }

    /// Why the server cannot be reached, over TCP and with `-t` through the TLS handshake (ALPN
    /// h2, the cases' TLS options), or nil when it can: checked once before the cases, each of
    /// which would fail at its connect, as h2spec stops at its first failed dial.
    package func unreachable() async -> String? {
        let text = "set timeout {timeout}\nset http2 handshake off\nconnect {url}\n"
        let loaded = ScenarioLoader.load("reach.scn", given: options.variables) { _ in text }
        guard let scenario = loaded.scenario else { return loaded.diagnostics.map(\.description).joined(separator: "\n") }
        return await ScenarioRunner(options: runOptions).run(scenario).failure?.message
    }

    /// How the cases run: the suite's variables for the server, the TLS options of `-k` and `-c`.
    private var runOptions: RunOptions {
        var runOptions = RunOptions(variables: options.variables)
        // As documented: `--jobs` cases at once against the one server (h2spec runs them one by one).
        runOptions.givenServerOneScenarioAtATime = false
        runOptions.keepsLogs = options.verbose
        if options.tls && (options.insecure || options.ciphers != nil) {
            var client = TLSOptions()
            client.insecure = options.insecure
            client.ciphers = options.ciphers.map { Template(literal: $0) }
            runOptions.defaultTLS = (client, TLSOptions())
        }
        return runOptions
    }

    /// The selected cases' scenarios, loaded from the suite: the whole folder when every case
    /// runs, else only the selected cases' files (one case ran in 40 ms, 8 of them loading the
    /// other 146).
    package func scenarios() throws -> [Scenario] {
        let selected = selectedCases
        let wanted = Set(selected.map(\.id))
        let paths = selected.count == catalog.cases.count ? [suite] : selected.map { suite + "/" + $0.fileName }
        let loaded = try ScenarioCatalog.load(paths, variables: options.variables)
        if let error = loaded.diagnostics.first(where: { $0.severity == .error }) {
            throw H2SpecError("the suite does not load: \(error.location.fileAndLine): \(error.message)")
        }
        return loaded.scenarios.filter { wanted.contains(ShippedSuite.caseID(ofTitle: $0.title)) }
    }

    /// Runs `scenarios` (the selected cases'); the results keyed by case id.
    package func run(_ scenarios: [Scenario]) async -> [String: H2SpecResult] {
        let wanted = Dictionary(uniqueKeysWithValues: selectedCases.map { ($0.id, $0) })
        let session = RunSession(options: runOptions, jobs: jobs, failFast: false, repetitions: 1)
        let (report, _) = await session.run(scenarios, skipping: []) { _ in }
        var results: [String: H2SpecResult] = [:]
        for result in report.results {
            let id = ShippedSuite.caseID(ofTitle: result.title)
            if let testCase = wanted[id] { results[id] = H2SpecResult(testCase, result) }
        }
        return results
    }
}
