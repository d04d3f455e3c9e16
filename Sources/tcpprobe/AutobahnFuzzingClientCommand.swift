import ArgumentParser
import FoundationEssentials
import ProbeReport
import ProbeResults
import ProbeRunner
import ProbeScript

/// `tcpprobe autobahn fuzzingclient --spec fuzzingclient.json`: tests each server the spec
/// names with the cases of Scenarios/websocket-server that it selects, as `wstest -m
/// fuzzingclient` does, and writes the reports in Autobahn's layout to the spec's `outdir`.
struct AutobahnFuzzingClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzzingclient",
        abstract: "Test the WebSocket servers an Autobahn|Testsuite spec names, and write its reports.",
        discussion: """
            Reads the spec as wstest does: servers (agent and url), cases and exclude-cases \
            (globs on case numbers), exclude-agent-cases, outdir (default ./reports/servers). \
            The compression cases (12.*, 13.*) are reported UNIMPLEMENTED: tcpprobe's suite \
            has no permessage-deflate. Exits 0 when the reports are written, whatever the \
            verdicts, as wstest does; 1 when the spec names no case the suite has.
            """
    )

    @Option(help: ArgumentHelp("The spec file.", valueName: "FILE"))
    var spec = "fuzzingclient.json"

    @Option(help: ArgumentHelp("The suite's folder (default: Scenarios/websocket-server here, else the installed one).", valueName: "DIR"))
    var suite: String?

    @Option(help: "Cases run at once.")
    var jobs = 4

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        let spec: AutobahnSpec
        let folder: String
        do {
            spec = try AutobahnSpec.load(self.spec)
            folder = try suite ?? AutobahnCommand.suite("websocket-server")
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode.invalidInput
        }
        let outdir = spec.outdir ?? "./reports/servers"
        var runs: [(agent: String, cases: [AutobahnCase])] = []
        guard let servers = spec.servers, !servers.isEmpty else {
            Terminal.printError("error: \(self.spec) names no servers")
            throw ExitCode.invalidInput
        }
        for server in servers {
            let catalog = try ScenarioCatalog.load([folder], variables: ["url": server.url])
            if let error = catalog.diagnostics.first(where: { $0.severity == .error }) {
                Terminal.printError("error: the suite does not load: \(error.message)")
                throw ExitCode.invalidInput
            }
            let selected = catalog.scenarios.filter { spec.selects(Self.caseID($0.title), for: server.agent) }
            let session = RunSession(options: RunOptions(variables: ["url": server.url]), jobs: jobs, failFast: false, repetitions: 1)
            let (report, _) = await session.run(selected, skipping: []) { _ in }
            var cases = report.results.enumerated().map { index, result in
                AutobahnCase(id: Self.caseID(result.title), agent: server.agent, result: result, section: "s\(index)")
            }
            cases += AutobahnCase.compressionCases.filter { spec.selects($0, for: server.agent) }.map {
                AutobahnCase(unimplemented: $0, agent: server.agent, why: AutobahnFuzzingServer.compressionDescription)
            }
            guard !cases.isEmpty else {
                Terminal.printError("error: the spec selects none of the suite's cases for \(server.agent)")
                throw ExitCode.scenarioFailed
            }
            try ReportWriter.write(ReportFormat.html.render(report), to: outdir + "/" + AutobahnReports.agentReport(server.agent))
            runs.append((server.agent, cases.sorted { AutobahnCase.precedes($0.id, $1.id) }))
            print(Self.summary(server.agent, cases))
        }
        try AutobahnReports.write(runs, to: outdir)
        print("reports written to \(outdir)/index.json and \(outdir)/index.html")
    }

    /// A case's number: its scenario title's first word ("6.4.1 text message in 3 frames …").
    static func caseID(_ title: String) -> String {
        String(title.prefix { $0 != " " })
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
