import Foundation
import TestSupport
import Testing

/// The conformance suites in Scenarios/ against linechat: they pass on every transport, and
/// every bug linechat can plant makes them fail (the mutation score); the line suites pass
/// against an adapter written from docs/reference-protocol.md alone.
@Suite(.serialized, .heavy) struct ConformanceSuiteTests {
    static let root = ProbeProcess.fixtures.deletingLastPathComponent().deletingLastPathComponent()
    static let scenarios = root.appendingPathComponent("Scenarios").path
    /// linechat's suites: everything in Scenarios/ but the WebSocket suites (Autobahn's cases)
    /// and the HTTP/2 suites (h2spec's), which have tests of their own (WebSocketServerSuiteTests,
    /// H2SpecCommandTests, HTTP2ClientSuiteTests, and steps of .ci/run) and, named, are not even
    /// loaded: each of the mutation score's 44 runs would parse their 806 files.
    static let linechatSuites: [String] = {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: scenarios)) ?? []
        return entries.filter { !["websocket-server", "websocket-client", "http2-server", "http2-client"].contains($0) }.sorted().map { scenarios + "/" + $0 }
    }()

    /// Each bug linechat can plant, and the variable that plants it where it can go: `fault`
    /// for the server, `client_fault` for the client, `ws_fault` for the WebSocket server
    /// (`linechat faults` says which). The echo server's faults are the WebSocket server suite's
    /// (WebSocketServerSuiteTests), which these suites skip.
    static func plantings() async -> [(fault: String, variable: String)] {
        guard let faults = try? await ProbeProcess.linechatFaults() else { return [] }
        return faults.filter { !["serve --websocket --echo", "serve --http2"].contains($0.commands) }.flatMap { fault, commands in
            commands.split(separator: ",").map { (fault, $0 == "connect" ? "client_fault" : $0 == "serve --websocket" ? "ws_fault" : "fault") }
        }
    }

    /// Run from another directory than the repository's: subjects run in their scenario's folder.
    @Test(.wholeSuite, arguments: ["bsd", "dispatch", "nio"])
    func theSuitePassesOnEveryTransport(_ transport: String) async throws {
        let output = try await ProbeProcess.run(["run", "--var", "transport=\(transport)"] + Self.linechatSuites, in: FileManager.default.temporaryDirectory)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("27 passed, 0 failed"))
    }

    /// The line suites run as a user runs them on their own transport, the server and the
    /// client given by `--var`: here the Python adapter in Tests/Fixtures/reference-adapter,
    /// written from the protocol page alone, passes every scenario of both.
    @Test(.wholeSuite) func theLineSuitesPassAgainstAnAdapterWrittenFromTheProtocolPage() async throws {
        let adapter = ProbeProcess.fixtures.appendingPathComponent("reference-adapter/chat.py").path
        let server = try await ProbeProcess.run(["run", "-v", "--jobs", "4", "--var", "server=python3 \(adapter) serve {host} {port}",
                                                 "--var", "heartbeat_server=python3 \(adapter) serve {host} {port} --heartbeat 0.2",
                                                 Self.scenarios + "/line-server"])
        #expect(server.status == 0, "\(server.stdout)\(server.stderr)")
        #expect(server.stdout.contains("17 passed, 0 failed"), "\(server.stdout)")
        #expect(server.stdout.contains("spawned 'server'") && !server.stdout.contains("linechat"), "\(server.stdout)")
        let client = try await ProbeProcess.run(["run", "-v", "--var", "client=python3 \(adapter) connect {host} {port} {name}",
                                                 Self.scenarios + "/line-client"])
        #expect(client.status == 0, "\(client.stdout)\(client.stderr)")
        #expect(client.stdout.contains("6 passed, 0 failed"), "\(client.stdout)")
        #expect(client.stdout.contains("python3 \(adapter) connect 127.0.0.1 ") && client.stdout.contains(" Luke"))
    }

    /// What runs the suite over TLS: certificates a test authority issues in `directory`, the
    /// probe's `--tls` options, and the variables that start linechat over TLS (nio only).
    static func overTLS(in directory: URL) throws -> [String] {
        let authority = try TestAuthority(in: directory)
        let server = try authority.issue("server")
        return ["--tls", "--tls-ca", authority.rootPath, "--tls-cert", server.certificate, "--tls-key", server.key,
                "--var", "transport=nio", "--var", "tls_flags=--tls \(server.certificate) \(server.key)",
                "--var", "client_tls=--tls --ca \(authority.rootPath)"]
    }

    /// The whole suite over TLS: every connection of the probe and of linechat speaks TLS, and
    /// the wire checks judge the decrypted records.
    @Test(.root, .wholeSuite) func theSuitePassesOverTLS() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-suite-tls-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await ProbeProcess.run(["run", "-v"] + Self.overTLS(in: directory) + Self.linechatSuites)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("27 passed, 0 failed"))
        #expect(output.stdout.contains("TLS handshake done as client") && output.stdout.contains("TLS handshake done as server"))
        #expect(output.stdout.contains("wire from peer, decrypted: 3 lines, each ending in crlf"))
    }

    /// The steps that failed in a run's JSON report: "file:line step" for each failed scenario.
    static func catchingSteps(_ report: URL) throws -> [(location: String, step: String)] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        return (json?["scenarios"] as? [[String: Any]] ?? []).compactMap { scenario in
            guard let failure = scenario["failure"] as? [String: Any], let location = failure["location"] as? String,
                  let step = failure["step"] as? String else { return nil }
            return (String(location.split(separator: "/").last ?? ""), step)
        }
    }

    /// Every planted fault fails the suite, and the report says which scenario and step caught
    /// it. Each wire property catches at least one fault on its own: in some scenario, the
    /// expects before it tolerate the fault and the wire check is the step that fails. A step
    /// of `.ci/run` of its own (TCPPROBE_PLANTINGS=1), with the same over TLS: its runs take
    /// about 18 s, which the 5-minute test budget no longer has room for.
    @Test(.root, .enabled(if: ProcessInfo.processInfo.environment["TCPPROBE_PLANTINGS"] == "1"))
    func everyPlantedFaultIsCaught() async throws {
        try await catchEveryPlantedFault(overTLS: false)
    }

    /// The same over TLS, the wire checks reading the decrypted records (TCPPROBE_PLANTINGS=1):
    /// its 29 more runs, some waiting out a timeout, take about 20 s.
    @Test(.root, .enabled(if: ProcessInfo.processInfo.environment["TCPPROBE_PLANTINGS"] == "1"))
    func everyPlantedFaultIsCaughtOverTLS() async throws {
        try await catchEveryPlantedFault(overTLS: true)
    }

    private func catchEveryPlantedFault(overTLS: Bool) async throws {
        let plantings = await Self.plantings()
        // Each MUST of docs/reference-protocol.md broken, and each limit missed by one byte either way.
        #expect(plantings.filter { $0.variable == "fault" }.count >= 16, "linechat plants at least 16 bugs in its server")
        #expect(plantings.filter { $0.variable == "client_fault" }.count >= 9, "and nine in its client")
        #expect(plantings.filter { $0.variable == "ws_fault" }.count >= 4, "and four in its WebSocket server")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-mutants-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tls = overTLS ? try Self.overTLS(in: directory) : []
        let over = overTLS ? " over TLS" : ""
        var caught = 0
        var catchers: [String] = []
        // Eight scenarios at a time, and five plantings: a planted fault makes some scenarios
        // wait out a timeout. Each runs the scenarios that start the program it is planted in.
        let outputs = try await Self.concurrently(plantings.indices, atMost: Self.plantingsAtOnce) { index in
            let (fault, variable) = plantings[index]
            let report = directory.appendingPathComponent("\(index).json")
            return try await ProbeProcess.run(["run", "--jobs", "8", "--report", "json=\(report.path)", "--var", "\(variable)=--fault \(fault)"]
                                              + tls + Self.suites(planting: variable))
        }
        for (index, (fault, variable)) in plantings.enumerated() {
            let output = outputs[index]
            let steps = try Self.catchingSteps(directory.appendingPathComponent("\(index).json"))
            print("\(variable) \(fault)\(over): caught by " + steps.map { "\($0.location) \($0.step)" }.joined(separator: "; "))
            #expect(output.status == 1, output.status == 0 ? "\(variable) \(fault) was not caught by any scenario\(over)"
                     : "\(variable) \(fault): exit \(output.status)\n\(output.stdout)\(output.stderr)")
            if output.status == 1 { caught += 1 }
            catchers += steps.map(\.step)
        }
        print("mutation score\(over): caught \(caught) of \(plantings.count) planted faults")
        #expect(caught == plantings.count)
        for property in ["terminator crlf", "lines unsplit", "in 1 segment", "fin"] {
            #expect(catchers.contains { $0.hasPrefix("assert wire from peer ") && $0.hasSuffix(property) },
                    "no planted fault is caught by `assert wire from peer … \(property)` on its own\(over)")
        }
    }

    /// The scenarios that start what `variable` plants a fault in: linechat's server (`fault`:
    /// the line-server suite and crlf.scn), its client (`client_fault`) or its WebSocket chat
    /// (`ws_fault`: the websocket-*.scn scenarios).
    static func suites(planting variable: String) -> [String] {
        switch variable {
        case "client_fault": return [scenarios + "/line-client"]
        case "ws_fault": return linechatSuites.filter { $0.hasSuffix(".scn") && $0.contains("/websocket-") }
        default: return [scenarios + "/line-server", scenarios + "/crlf.scn"]
        }
    }

    /// How many planted-fault runs go at once.
    static let plantingsAtOnce = 5

    /// `body` of each index, at most `limit` at a time, in the indices' order.
    static func concurrently<Value: Sendable>(_ indices: Range<Int>, atMost limit: Int,
                                              _ body: @escaping @Sendable (Int) async throws -> Value) async throws -> [Value] {
        try await withThrowingTaskGroup(of: (Int, Value).self) { group in
            var values: [Int: Value] = [:]
            var waiting = indices.makeIterator()
            func startNext() {
                guard let index = waiting.next() else { return }
                group.addTask { (index, try await body(index)) }
            }
            for _ in 0..<limit { startNext() }
            while let (index, value) = try await group.next() {
                values[index] = value
                startNext()
            }
            return indices.map { values[$0]! }
        }
    }
}
