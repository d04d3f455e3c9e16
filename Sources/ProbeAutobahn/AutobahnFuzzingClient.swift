import ProbeReport
import ProbeResults
import ProbeRunner
import ProbeScript

/// What `tcpprobe autobahn fuzzingclient` does, as `wstest -m fuzzingclient` does: tests each
/// server the spec names with the cases of the server suite that it selects, and writes the
/// reports in Autobahn's layout to the spec's `outdir`. The compression cases (12.*, 13.*) are
/// reported UNIMPLEMENTED.
package struct AutobahnFuzzingClient {
    /// Why the run cannot be made: the spec or the suite is wrong, or the spec selects none of
    /// the suite's cases for a server.
    package enum Refusal: Error, CustomStringConvertible {
        case invalidInput(String)
        case noCases(String)

        package var description: String {
            switch self {
            case .invalidInput(let why), .noCases(let why): return why
            }
        }
    }

    package let spec: AutobahnSpec
    /// The spec's file, for messages.
    package let specPath: String
    package let suite: String
    package let jobs: Int

    package init(spec: AutobahnSpec, specPath: String, suite: String, jobs: Int) {
        self.spec = spec
        self.specPath = specPath
        self.suite = suite
        self.jobs = jobs
    }

    /// The folder the reports go to.
    package var outdir: String { spec.outdir ?? "./reports/servers" }

    /// Runs every server's cases and writes the reports; `said` gets one summary line for each
    /// server as it is done.
    package func run(_ said: (String) -> Void) async throws {
        guard let servers = spec.servers, !servers.isEmpty else { throw Refusal.invalidInput("\(specPath) names no servers") }
        var runs: [(agent: String, cases: [AutobahnCase])] = []
        for server in servers {
            let catalog = try ScenarioCatalog.load([suite], variables: ["url": server.url])
            if let error = catalog.diagnostics.first(where: { $0.severity == .error }) {
                throw Refusal.invalidInput("the suite does not load: \(error.message)")
            }
            let selected = catalog.scenarios.filter { spec.selects(ShippedSuite.caseID(ofTitle: $0.title), for: server.agent) }
            let session = RunSession(options: RunOptions(variables: ["url": server.url]), jobs: jobs, failFast: false, repetitions: 1)
            let (report, _) = await session.run(selected, skipping: []) { _ in }
            var cases = report.results.enumerated().map { index, result in
                AutobahnCase(id: ShippedSuite.caseID(ofTitle: result.title), agent: server.agent, result: result, section: "s\(index)")
            }
            cases += AutobahnCase.compressionCases.filter { spec.selects($0, for: server.agent) }.map {
                AutobahnCase(unimplemented: $0, agent: server.agent, why: AutobahnFuzzingServer.compressionDescription)
            }
            guard !cases.isEmpty else { throw Refusal.noCases("the spec selects none of the suite's cases for \(server.agent)") }
            try ReportWriter.write(ReportFormat.html.render(report), to: outdir + "/" + AutobahnReports.agentReport(server.agent))
            runs.append((server.agent, cases.sorted { AutobahnCase.precedes($0.id, $1.id) }))
            said(Self.summary(server.agent, cases))
        }
        try AutobahnReports.write(runs, to: outdir)
    }

    /// One line for an agent: how many cases of each behavior, and which failed.
    static func summary(_ agent: String, _ cases: [AutobahnCase]) -> String {
        let counts = ["OK", "NON-STRICT", "INFORMATIONAL", "UNIMPLEMENTED", "FAILED"].compactMap { behavior -> String? in
            let count = cases.filter { $0.behavior == behavior }.count
            return count == 0 ? nil : "\(count) \(behavior)"
        }
        let failed = cases.filter { $0.behavior == "FAILED" }.map(\.id)
        return "\(agent): " + counts.joined(separator: ", ") + (failed.isEmpty ? "" : " (" + failed.joined(separator: ", ") + ")")
    }
}
