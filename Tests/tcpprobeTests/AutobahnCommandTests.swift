import Foundation
import Glibc
import TestSupport
import Testing

/// `tcpprobe autobahn fuzzingclient` and `fuzzingserver`: Autobahn|Testsuite's spec files in,
/// its reports' layout out; the client on two servers (linechat's echo server, and the same
/// with a planted fault), the server driven by a client driver written as python `websockets`
/// writes its own.
@Suite struct AutobahnCommandTests {
    static let suite = ConformanceSuiteTests.scenarios + "/websocket-server"

    /// Starts linechat's echo server on a free port, and waits (10 s at most) until it listens.
    static func echoServer(_ extra: [String] = []) async throws -> (process: Process, url: String) {
        let (fd, port) = try LoopbackSocket.bound(listening: false)
        close(fd)
        let process = Process()
        process.executableURL = ProbeProcess.linechat
        process.arguments = ["serve", "--websocket", "--echo", "--port", String(port)] + extra
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        if await Eventually.holds(every: .milliseconds(50), { LoopbackSocket.listens(on: port) }) { return (process, "ws://127.0.0.1:\(port)/") }
        process.terminate()
        throw CancellationError()
    }

    @Test func fuzzingclientWritesAutobahnsReportsForEachServer() async throws {
        let clean = try await Self.echoServer()
        let faulty = try await Self.echoServer(["--fault", "ws-echo-empty-pong"])
        defer {
            for server in [clean.process, faulty.process] { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        }
        let spec = """
            {
              "options": {"failByDrop": false},
              "outdir": "./out/servers",
              "servers": [{"agent": "Clean Server/1.0", "url": "\(clean.url)"}, {"agent": "faulty", "url": "\(faulty.url)"}],
              "cases": ["2.*", "12.1.1"],
              "exclude-cases": ["2.11"],
              "exclude-agent-cases": {"faulty": ["2.10"]}
            }
            """
        try await ProbeProcess.inDirectory(holding: ["fuzzingclient.json": spec]) { directory in
            let output = try await ProbeProcess.run(["autobahn", "fuzzingclient", "--suite", Self.suite], in: directory)
            #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
            #expect(output.stdout.contains("Clean Server/1.0: 10 OK, 1 UNIMPLEMENTED"), "\(output.stdout)")
            #expect(output.stdout.contains("faulty: 4 OK, 1 UNIMPLEMENTED, 5 FAILED (2.2, 2.3, 2.4, 2.6, 2.9)"), "\(output.stdout)")
            let reports = directory.appendingPathComponent("out/servers")
            let index = try JSONSerialization.jsonObject(with: Data(contentsOf: reports.appendingPathComponent("index.json"))) as? [String: [String: [String: Any]]]
            let cleanCases = try #require(index?["Clean Server/1.0"])
            #expect(Set(cleanCases.keys) == Set((1...10).map { "2.\($0)" } + ["12.1.1"]))
            #expect(cleanCases["2.2"]?["behavior"] as? String == "OK")
            #expect(cleanCases["2.2"]?["behaviorClose"] as? String == "OK")
            #expect(cleanCases["2.2"]?["reportfile"] as? String == "clean_server_1_0_case_2_2.json")
            #expect(cleanCases["12.1.1"]?["behavior"] as? String == "UNIMPLEMENTED")
            let faultyCases = try #require(index?["faulty"])
            #expect(faultyCases["2.10"] == nil && faultyCases["2.11"] == nil, "excluded")
            #expect(faultyCases["2.1"]?["behavior"] as? String == "OK", "an empty ping's pong is empty anyway")
            #expect(faultyCases["2.2"]?["behavior"] as? String == "FAILED")
            let caseReport = try JSONSerialization.jsonObject(with: Data(contentsOf: reports.appendingPathComponent("faulty_case_2_2.json"))) as? [String: Any]
            #expect((caseReport?["failure"] as? String)?.contains("expect pong") == true, "\(String(describing: caseReport))")
            let matrix = try String(contentsOf: reports.appendingPathComponent("index.html"), encoding: .utf8)
            #expect(matrix.contains("<th>Clean Server/1.0</th><th>faulty</th>"))
            #expect(matrix.contains("<td class=\"FAILED\""))
            #expect(matrix.contains("href=\"faulty.html#s"), "each cell opens the case in the agent's report")
            #expect(FileManager.default.fileExists(atPath: reports.appendingPathComponent("faulty.html").path))
        }
    }

    @Test func aSpecThatSelectsNothingOrCannotBeReadIsRefused() async throws {
        let none = """
            {"servers": [{"agent": "a", "url": "ws://127.0.0.1:1/"}], "cases": ["99.*"]}
            """
        let output = try await ProbeProcess.run(["autobahn", "fuzzingclient", "--suite", Self.suite], with: ["fuzzingclient.json": none])
        #expect(output.status == 1 && output.stderr.contains("the spec selects none of the suite's cases for a"), "\(output.stderr)")
        let broken = try await ProbeProcess.run(["autobahn", "fuzzingclient", "--suite", Self.suite], with: ["fuzzingclient.json": "{\"servers\": 3}"])
        #expect(broken.status == 2 && broken.stderr.contains("fuzzingclient.json is not an Autobahn spec"), "\(broken.stderr)")
    }

    /// The client driver (getCaseCount, runCase for each, updateReports) runs unchanged against
    /// `tcpprobe autobahn fuzzingserver`, and leaves reports/clients/index.json with a verdict
    /// for each case the spec selects: python websockets' client fails 7.1.5, as its server does;
    /// the compression cases are served as wstest serves a client without permessage-deflate
    /// (an upgrade and a close 1000) and reported UNIMPLEMENTED.
    @Test(.websockets) func aClientDriverRunsAgainstFuzzingserverUnchanged() async throws {
        let spec = """
            {"url": "ws://127.0.0.1:9001", "outdir": "./out/clients", "cases": ["1.1.*", "2.*", "7.1.5", "12.1.1", "13.7.18"], "exclude-cases": ["2.11"]}
            """
        try await ProbeProcess.inDirectory(holding: ["fuzzingserver.json": spec]) { directory in
            let (fd, port) = try LoopbackSocket.bound(listening: false)
            close(fd)
            let server = Process()
            server.executableURL = ProbeProcess.binary
            server.arguments = ["autobahn", "fuzzingserver", "--spec", "fuzzingserver.json", "--port", String(port), "--suite",
                                ConformanceSuiteTests.scenarios + "/websocket-client"]
            server.currentDirectoryURL = directory
            server.standardOutput = FileHandle.nullDevice
            try server.run()
            defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
            await Eventually.holds(every: .milliseconds(50)) { LoopbackSocket.listens(on: port) }
            let driver = ProbeProcess.fixtures.appendingPathComponent("websocket-echo/autobahn_client_driver.py").path
            let output = try await ProbeProcess.run(["python3", driver, "ws://127.0.0.1:\(port)", "websockets"], in: directory,
                                                    executable: URL(fileURLWithPath: "/usr/bin/env"))
            #expect(output.status == 0 && output.stdout.contains("running 21 cases"), "\(output.stdout)\(output.stderr)")
            let index = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("out/clients/index.json")))
                as? [String: [String: [String: Any]]]
            let cases = try #require(index?["websockets"])
            #expect(cases.count == 21, "\(cases.keys.sorted())")
            #expect(cases["7.1.5"]?["behavior"] as? String == "FAILED")
            #expect(cases["12.1.1"]?["behavior"] as? String == "UNIMPLEMENTED" && cases["13.7.18"]?["behavior"] as? String == "UNIMPLEMENTED", "\(cases)")
            #expect(cases.filter { !["7.1.5", "12.1.1", "13.7.18"].contains($0.key) }.allSatisfy { $0.value["behavior"] as? String == "OK" }, "\(cases)")
            // A URL it does not know is answered 404.
            let socket = try LoopbackSocket.connected(to: port)
            defer { close(socket) }
            let request = Array("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            #expect(write(socket, request, request.count) == request.count)
            var answer = [UInt8](repeating: 0, count: 64)
            let count = read(socket, &answer, answer.count)
            #expect(String(decoding: answer.prefix(max(count, 0)), as: UTF8.self).hasPrefix("HTTP/1.1 404 Not Found"))
        }
    }
}
