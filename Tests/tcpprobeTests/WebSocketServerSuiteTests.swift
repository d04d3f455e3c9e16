import Foundation
import Glibc
import TestSupport
import Testing

/// The WebSocket server suite (Scenarios/websocket-server, Autobahn|Testsuite's categories 1 to
/// 5 case by case) against linechat's echo server and python `websockets`' echo server, each
/// case's verdict compared with what that server is known to do.
@Suite(.serialized) struct WebSocketServerSuiteTests {
    static let suite = ConformanceSuiteTests.scenarios + "/websocket-server"

    /// The cases whose notes a run's JSON report holds: the case number (its title's first
    /// word) and how many `non-strict` notes it has.
    static func nonStrictCases(_ report: URL) throws -> [String: Int] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        var cases: [String: Int] = [:]
        for scenario in json?["scenarios"] as? [[String: Any]] ?? [] {
            let notes = (scenario["notes"] as? [String] ?? []).filter { $0.hasPrefix("non-strict: ") }
            guard !notes.isEmpty, let title = scenario["title"] as? String, let number = title.split(separator: " ").first else { continue }
            cases[String(number)] = notes.count
        }
        return cases
    }

    /// Runs the suite with `arguments` and a JSON report in `directory`.
    static func run(_ arguments: [String], in directory: URL) async throws -> (output: String, nonStrict: [String: Int]) {
        let report = directory.appendingPathComponent("report-\(UUID()).json")
        let output = try await ProbeProcess.run(["run", "--jobs", "4", "--report", "json=\(report.path)"] + arguments + [suite])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("64 passed, 0 failed"), "\(output.stdout)")
        return (output.stdout, try nonStrictCases(report))
    }

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-ws-suite-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// linechat's echo server is strict: every case passes with no note.
    @Test func linechatsEchoServerPassesEveryCaseStrictly() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await Self.run([], in: directory)
        #expect(run.nonStrict.isEmpty, "\(run.nonStrict)")
    }

    /// python `websockets` passes every case; its repository's compliance notes say it gets a
    /// NON-STRICT in 3.2, 3.3, 4.1.3, 4.1.4, 4.2.3, 4.2.4 and 5.15, where it fails the connection
    /// before it echoes the message before the bad frame. Which of those it gets in a run depends
    /// on whether the frames arrive in one read: here, as with Autobahn, a note may come in any of
    /// the cases that allow it (the octet-wise 3.4, 4.1.5 and 4.2.5 too), and in no other.
    /// The server runs once, given as a user gives one already running: `--var url=…`.
    @Test(.websockets) func pythonWebsocketsPassesWithNotesWhereAutobahnAllowsThem() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let portFile = directory.appendingPathComponent("port").path
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", ProbeProcess.fixtures.appendingPathComponent("websocket-echo/echo_server.py").path, "0", portFile]
        try server.run()
        // SIGKILL: the test process ignores SIGTERM, and python inherits that.
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        // It writes its port once it listens: wait for that, 10 s at most.
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: portFile) { try await Task.sleep(for: .milliseconds(50)) }
        let port = try #require(Int(try String(contentsOfFile: portFile, encoding: .utf8)))
        let run = try await Self.run(["--var", "url=ws://127.0.0.1:\(port)/"], in: directory)
        let allowed: Set = ["3.2", "3.3", "3.4", "4.1.3", "4.1.4", "4.1.5", "4.2.3", "4.2.4", "4.2.5", "5.15"]
        #expect(Set(run.nonStrict.keys).isSubset(of: allowed), "\(run.nonStrict)")
        #expect(run.nonStrict.values.allSatisfy { $0 == 1 }, "one note a case: the failed echo, never the close code \(run.nonStrict)")
    }
}
