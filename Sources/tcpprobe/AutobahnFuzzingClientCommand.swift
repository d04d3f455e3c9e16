import ArgumentParser
import ProbeAutobahn

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
        let client: AutobahnFuzzingClient
        do {
            client = AutobahnFuzzingClient(spec: try AutobahnSpec.load(spec), specPath: spec,
                                           suite: try suite ?? AutobahnSuite.folder("websocket-server"), jobs: jobs)
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode.invalidInput
        }
        do {
            try await client.run { print($0) }
        } catch let refusal as AutobahnFuzzingClient.Refusal {
            Terminal.printError("error: \(refusal)")
            if case .noCases = refusal { throw ExitCode.scenarioFailed }
            throw ExitCode.invalidInput
        }
        print("reports written to \(client.outdir)/index.json and \(client.outdir)/index.html")
    }
}
