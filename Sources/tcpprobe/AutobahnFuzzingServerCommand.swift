import ArgumentParser
import ProbeAutobahn
import ProbeHost
import ProbeRunner
#if canImport(Glibc)
import Glibc
#endif

/// `tcpprobe autobahn fuzzingserver`: Autobahn|Testsuite's server for client drivers, as
/// `wstest -m fuzzingserver` is: a WebSocket client driver asks `/getCaseCount`, then runs
/// `/runCase?case=N&agent=A` for each case and asks `/updateReports?agent=A`, unchanged; the
/// cases are Scenarios/websocket-client's, and the reports go to `reports/clients`.
struct AutobahnFuzzingServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzzingserver",
        abstract: "Serve Autobahn|Testsuite's cases to WebSocket client drivers, and write its reports.",
        discussion: """
            Answers /getCaseCount, /getCaseInfo?case=N, /getCaseStatus?case=N&agent=A, \
            /runCase?case=N&agent=A and /updateReports?agent=A as wstest does. The spec, when \
            there is one, gives the URL (its port), outdir (default ./reports/clients) and the \
            cases, as fuzzingserver.json does. Runs until interrupted.
            """
    )

    @Option(help: ArgumentHelp("The spec file (optional).", valueName: "FILE"))
    var spec: String?

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (default: the spec's URL's, else 9001; 0 picks a free one).")
    var port: Int?

    @Option(help: ArgumentHelp("The suite's folder (default: Scenarios/websocket-client here, else the installed one).", valueName: "DIR"))
    var suite: String?

    func run() async throws {
        let spec: AutobahnSpec?
        let folder: String
        do {
            spec = try self.spec.map(AutobahnSpec.load)
            folder = try suite ?? AutobahnSuite.folder("websocket-client")
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode.invalidInput
        }
        let cases = AutobahnFuzzingServer.cases(in: folder) { spec?.selects($0, for: "") ?? true }
        guard !cases.isEmpty else {
            Terminal.printError("error: no case of \(folder) is selected")
            throw ExitCode.invalidInput
        }
        let server = AutobahnFuzzingServer(cases: cases, outdir: spec?.outdir ?? "./reports/clients")
        let port = self.port ?? spec?.url.flatMap { Int($0.split(separator: ":").last?.prefix { $0.isNumber } ?? "") } ?? 9001
        let relay = try await RequestRelay(host: host, port: port) { target in try await server.route(target) }
        print("listening on ws://\(host.contains(":") ? "[\(host)]" : host):\(relay.port)/ with \(cases.count) cases; reports go to \(server.outdir)")
        StandardOutput.flush()
        try await relay.run()
    }
}
