import Foundation
import TestSupport
import Testing

/// The WebSocket server suite (Scenarios/websocket-server, Autobahn|Testsuite's categories 1 to
/// 7 and 10 case by case) against linechat's echo server's planted faults, each caught by the
/// case that names its rule. Both WebSocket suites whole, against linechat and python's
/// WebSocket libraries, each case against what each is known to do, are a step of .ci/run of
/// their own: Tests/Fixtures/websocket-echo/compare-libraries.
@Suite(.serialized) struct WebSocketServerSuiteTests {
    static let suite = ConformanceSuiteTests.scenarios + "/websocket-server"

    /// What a run's JSON report says of each case, by case number (its title's first word):
    /// how many `non-strict` notes it has, and whether it failed; and how many cases ran.
    struct Verdicts {
        var nonStrict: [String: Int] = [:]
        var failed: Set<String> = []
        var count = 0
    }

    /// Runs the cases numbered in `cases` with `arguments` and a JSON report in `directory`.
    static func run(_ arguments: [String], cases: [String], in directory: URL) async throws -> Verdicts {
        let report = directory.appendingPathComponent("report-\(UUID()).json")
        let files = cases.map { "\(suite)/\($0).scn" }
        _ = try await ProbeProcess.run(["run", "--jobs", "4", "--report", "json=\(report.path)"] + arguments + files)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let scenarios = json?["scenarios"] as? [[String: Any]] ?? []
        var verdicts = Verdicts(count: scenarios.count)
        for scenario in scenarios {
            guard let title = scenario["title"] as? String, let number = title.split(separator: " ").first.map(String.init) else { continue }
            let notes = (scenario["notes"] as? [String] ?? []).filter { $0.hasPrefix("non-strict: ") }
            if !notes.isEmpty { verdicts.nonStrict[number] = notes.count }
            if scenario["failure"] != nil { verdicts.failed.insert(number) }
        }
        return verdicts
    }

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-ws-suite-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Each WebSocket fault linechat's echo server plants is caught by the cases of the rule it
    /// breaks, and cases of the same category that do not touch that rule still pass: the fault
    /// is named, not the server merely broken. (A close frame with reserved bits, 3.7, is answered
    /// with a clean close by ws-echo-ignores-rsv: the suite notes the code, which Autobahn judges
    /// apart from the verdict.)
    @Test(.wholeSuite, arguments: plantedFaults)
    func plantedFaultIsCaught(fault: String, caught: [String], unaffected: [String]) async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = "linechat serve --websocket --echo --fault \(fault) --host {host} --port {port}"
        let run = try await Self.run(["--var", "server=\(server)"], cases: caught + unaffected, in: directory)
        #expect(run.count == caught.count + unaffected.count)
        #expect(Set(caught).isSubset(of: run.failed), "\(fault): failed \(run.failed.sorted())")
        #expect(run.failed.isDisjoint(with: unaffected), "\(fault): failed \(run.failed.sorted())")
    }

    /// Every fault `linechat faults` lists for the echo server is one of those above.
    @Test func everyEchoFaultIsPlanted() async throws {
        let echoFaults = try await ProbeProcess.linechatFaults().filter { $0.commands == "serve --websocket --echo" }.map(\.fault)
        #expect(echoFaults.count >= 6)
        #expect(Set(echoFaults) == Set(Self.plantedFaults.map(\.fault)))
    }

    /// Each echo fault, the cases that must catch it, and cases it must leave passing.
    static let plantedFaults: [(fault: String, caught: [String], unaffected: [String])] = [
        ("ws-echo-invalid-utf8", ["6.3.1", "6.3.2", "6.4.1", "6.8.1", "6.20.1"], ["6.2.3", "6.5.1", "6.22.1"]),
        ("ws-echo-ignores-rsv", ["3.1", "3.2", "3.5", "3.6"], ["1.1.1", "2.1"]),
        ("ws-echo-empty-pong", ["2.2", "2.3", "2.4", "2.6", "2.9", "2.10"], ["2.1", "2.5", "2.7"]),
        ("ws-echo-fragmented-control", ["5.1", "5.2"], ["5.3", "5.6", "5.9"]),
        ("ws-echo-fragments-out-of-order", ["5.9", "5.12", "5.16", "5.18"], ["5.1", "5.3", "5.6"]),
        ("ws-echo-code-1005", ["7.3.1"], ["7.1.1", "7.3.3", "7.9.1"]),
    ]
}
