import FoundationEssentials
import ProbeHost
import ProbeReport
import ProbeResults
import ProbeRunner
import ProbeScript

/// What `tcpprobe autobahn fuzzingserver` answers on each of Autobahn's client-driver URLs.
/// Every request is served by a scenario that listens on a fresh port, to which `RequestRelay`
/// hands the connection: `/runCase?case=N&agent=A` by case N of Scenarios/websocket-client
/// (without its `spawn client` statement: the client under test is the one connecting), the others by a scenario that answers with one text message, or none, and
/// closes. It keeps each agent's verdicts for `/getCaseStatus` and `/updateReports`. The
/// compression cases (12.*, 13.*), which the suite does not implement, are served as wstest
/// serves them to a client that did not negotiate permessage-deflate: the upgrade, a close
/// 1000, and UNIMPLEMENTED.
package actor AutobahnFuzzingServer {
    /// A case of the suite: its number, what it does, and its file (nil for a compression case).
    package struct Case: Sendable {
        var id: String
        var description: String
        var path: String?
    }

    static let compressionDescription = "compression (permessage-deflate): not implemented by tcpprobe's suite"

    package nonisolated let cases: [Case]
    package nonisolated let outdir: String
    private var results: [String: [(id: String, result: ScenarioResult)]] = [:]
    /// The compression cases each agent ran.
    private var unimplemented: [String: Set<String>] = [:]
    private var agents: [String] = []
    /// The cases still running: `/updateReports` waits for them.
    private var running: [Task<Void, Never>] = []

    package init(cases: [Case], outdir: String) {
        self.cases = cases
        self.outdir = outdir
    }

    /// The cases of `folder` that `selects` takes, and the compression cases it takes, in
    /// Autobahn's order.
    package static func cases(in folder: String, selecting selects: (String) -> Bool) -> [Case] {
        let suite = ScenarioCatalog.scenarioFiles(under: folder).compactMap { path -> Case? in
            guard let scenario = load(path, given: ["port": "0"]).scenario else { return nil }
            let id = ShippedSuite.caseID(ofTitle: scenario.title)
            guard selects(id) else { return nil }
            return Case(id: id, description: String(scenario.title.dropFirst(id.count + 1)), path: path)
        }
        let compression = AutobahnCase.compressionCases.filter(selects).map { Case(id: $0, description: compressionDescription, path: nil) }
        return (suite + compression).sorted { AutobahnCase.precedes($0.id, $1.id) }
    }

    /// Loads a case without its `spawn client` statement: the client under test connects by itself.
    static func load(_ path: String, given: [String: String]) -> ScenarioLoader.Result {
        var result = ScenarioLoader.load(path, given: given, read: ScenarioCatalog.readFile)
        result.scenario?.statements.removeAll { statement in
            guard case .spawn(let spawn) = statement.kind else { return false }
            return spawn.name.text == "client"
        }
        return result
    }

    /// Starts the scenario that answers `target` (a request's path and query) and gives the port
    /// it listens on; throws for a request it does not know, which the relay answers with 404.
    package func route(_ target: String) async throws -> Int {
        let (path, query) = Self.split(target)
        guard let port = FreePort.pick() else { throw AutobahnError("no free port") }
        let given = ["port": String(port)]
        let agent = query["agent"] ?? "unnamed"
        switch path {
        case "/getCaseCount":
            answer(String(cases.count), given: given)
        case "/getCaseInfo":
            let found = try self.case(query)
            answer(try Self.json(["id": found.id, "description": found.description]), given: given)
        case "/getCaseStatus":
            let found = try self.case(query)
            let behavior = unimplemented[agent]?.contains(found.id) == true ? "UNIMPLEMENTED"
                : results[agent]?.last { $0.id == found.id }.map { AutobahnCase(id: found.id, agent: agent, result: $0.result, section: "").behavior }
            answer(try Self.json(["behavior": behavior ?? "UNKNOWN"]), given: given)
        case "/runCase":
            let found = try self.case(query)
            if !agents.contains(agent) { agents.append(agent) }
            guard let path = found.path else {
                unimplemented[agent, default: []].insert(found.id)
                answer(nil, given: given)
                return port
            }
            guard let scenario = Self.load(path, given: given).scenario else { throw AutobahnError("case \(found.id) does not load") }
            running.append(Task {
                let result = await Self.run(scenario, given: given)
                self.keep(result, of: found.id, for: agent)
            })
        case "/updateReports":
            // A driver asks as soon as its last case's connection closes, before that case's
            // scenario has finished.
            let waiting = running
            running = []
            for task in waiting { await task.value }
            try writeReports()
            answer(nil, given: given)
        default:
            throw AutobahnError("no such URL: \(path)")
        }
        return port
    }

    /// Keeps a case's verdict for its agent, in place of an earlier run of the same case.
    private func keep(_ result: ScenarioResult, of id: String, for agent: String) {
        results[agent, default: []].removeAll { $0.id == id }
        results[agent, default: []].append((id, result))
    }

    /// Writes reports/clients (or the spec's outdir) for every agent that ran a case.
    func writeReports() throws {
        var runs: [(agent: String, cases: [AutobahnCase])] = []
        for agent in agents {
            let ran = (results[agent] ?? []).sorted { AutobahnCase.precedes($0.id, $1.id) }
            let report = RunReport(results: ran.map(\.result), startedAt: Date().formatted(.iso8601), duration: .zero)
            try ReportWriter.write(ReportFormat.html.render(report), to: outdir + "/" + AutobahnReports.agentReport(agent))
            let cases = ran.enumerated().map { AutobahnCase(id: $1.id, agent: agent, result: $1.result, section: "s\($0)") }
                + (unimplemented[agent] ?? []).map { AutobahnCase(unimplemented: $0, agent: agent, why: Self.compressionDescription) }
            runs.append((agent, cases.sorted { AutobahnCase.precedes($0.id, $1.id) }))
        }
        try AutobahnReports.write(runs, to: outdir)
    }

    private func `case`(_ query: [String: String]) throws -> Case {
        guard let number = query["case"].flatMap(Int.init), cases.indices.contains(number - 1) else {
            throw AutobahnError("no case \(query["case"] ?? "") (1 to \(cases.count))")
        }
        return cases[number - 1]
    }

    private static func run(_ scenario: Scenario, given: [String: String]) async -> ScenarioResult {
        let session = RunSession(options: RunOptions(variables: given), jobs: 1, failFast: false, repetitions: 1)
        let (report, _) = await session.run([scenario], skipping: []) { _ in }
        return report.results[0]
    }

    /// Runs a scenario that takes the client's upgrade, sends `text` when there is one, and closes.
    private nonisolated func answer(_ text: String?, given: [String: String]) {
        let source = """
            listen l 127.0.0.1:{port}
            accept c on l websocket
            \(text == nil ? "" : "send text \"{answer}\"")
            send close 1000
            expect close
            """
        var given = given
        given["answer"] = text
        let scenario = ScenarioLoader.load("autobahn-answer.scn", given: given) { _ in source }.scenario!
        Task { [given] in _ = await Self.run(scenario, given: given) }
    }

    private static func json(_ object: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(object), as: UTF8.self)
    }

    /// A target's path, and its query's percent-decoded values.
    static func split(_ target: String) -> (path: String, query: [String: String]) {
        let parts = target.split(separator: "?", maxSplits: 1)
        var query: [String: String] = [:]
        for pair in parts.dropFirst().first?.split(separator: "&") ?? [] {
            let kv = pair.split(separator: "=", maxSplits: 1).map(decode)
            if kv.count == 2 { query[kv[0]] = kv[1] }
        }
        return (String(parts.first ?? ""), query)
    }

    /// A query component percent-decoded, `+` a space.
    static func decode(_ component: Substring) -> String {
        var bytes: [UInt8] = []
        var rest = Array(component.utf8)[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
