import Foundation
import TestSupport
import Testing

/// Running many scenarios: --jobs, --shard, --list, --fail-fast, --repeat and the report files.
@Suite(.serialized) struct BatchCommandTests {
    private func scenarios(_ count: Int, text: (Int) -> String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-batch-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for index in 0..<count {
            try Data(text(index).utf8).write(to: directory.appendingPathComponent(String(format: "s%02d.scn", index)))
        }
        return directory
    }

    @Test func twoJobsRunTwoScenariosAtOnce() async throws {
        // The listener waits for a client only the other scenario sends: run one after the
        // other, its accept times out and the client is refused.
        let directory = try scenarios(2) {
            $0 == 0 ? "listen l 127.0.0.1:{p}\naccept c on l within 2s\nexpect line \"hi\"\n"
                : "sleep 300ms\nconnect 127.0.0.1:{p}\nsend line \"hi\"\n"
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let together = try await ProbeProcess.run(["run", "--jobs", "2", "--var", "p=\(try LoopbackSocket.closedPort())", "."], in: directory)
        #expect(together.status == 0, "\(together.stdout)")
        let oneByOne = try await ProbeProcess.run(["run", "--jobs", "1", "--var", "p=\(try LoopbackSocket.closedPort())", "."], in: directory)
        #expect(oneByOne.status == 1)
        #expect(oneByOne.stdout.contains("0 passed, 2 failed"), "\(oneByOne.stdout)")
    }

    @Test func resultsArePrintedInInputOrderWhateverOrderTheyFinishIn() async throws {
        let directory = try scenarios(8) { "sleep \((8 - $0) * 40)ms\n" }
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await ProbeProcess.run(["run", "--jobs", "2", "."], in: directory)
        #expect(output.status == 0)
        let order = output.stdout.split(separator: "\n").filter { $0.hasPrefix("✔") }.map { $0.split(separator: " ")[1] }
        #expect(order == (0..<8).map { Substring(String(format: "s%02d", $0)) })
    }


    @Test func shardsPartitionExactly() async throws {
        let directory = try scenarios(10) { "title \"scenario \($0)\"\nsleep 1ms\n" }
        defer { try? FileManager.default.removeItem(at: directory) }
        var seen: [String] = []
        for shard in 1...3 {
            let output = try await ProbeProcess.run(["run", "--list", "--shard", "\(shard)/3", "."], in: directory)
            #expect(output.status == 0)
            seen += output.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        let all = try await ProbeProcess.run(["run", "--list", "."], in: directory).stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        #expect(all.count == 10)
        #expect(seen.sorted() == all.sorted(), "the shards together cover every scenario")
        #expect(Set(seen).count == seen.count, "no scenario is in two shards")
        #expect(try await ProbeProcess.run(["run", "--shard", "4/3", "."], in: directory).status == 2)
    }

    @Test func failFastStopsStartingScenarios() async throws {
        let directory = try scenarios(6) { $0 == 0 ? "var p = free-port\nconnect 127.0.0.1:{p}\n" : "sleep 100ms\n" }
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await ProbeProcess.run(["run", "--jobs", "1", "--fail-fast", "."], in: directory)
        #expect(output.status == 1)
        #expect(output.stdout.contains("0 passed, 1 failed"))
        #expect(output.stdout.contains("--fail-fast: 5 scenario run(s) not started"))
    }

    @Test func repeatReportsEveryRun() async throws {
        let directory = try scenarios(1) { _ in "title \"flaky?\"\nsleep 1ms\n" }
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await ProbeProcess.run(["run", "--repeat", "3", "."], in: directory)
        #expect(output.status == 0)
        for run in 1...3 { #expect(output.stdout.contains("flaky? (run \(run)/3)")) }
        #expect(output.stdout.contains("3 passed, 0 failed"))
    }

    @Test func reportsAreWrittenAndParse() async throws {
        let directory = try scenarios(2) { $0 == 0 ? "sleep 1ms\n" : "var p = free-port\nconnect 127.0.0.1:{p}\n" }
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await ProbeProcess.run(["run", "--report", "junit=out/r.xml", "--report", "tap=out/r.tap",
                                           "--report", "json=out/r.json", "--report", "html=out/r.html", "."], in: directory)
        #expect(output.status == 1)
        let out = directory.appendingPathComponent("out")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files == ["r.html", "r.json", "r.tap", "r.xml"], "no temporary file is left behind")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("r.json"))) as? [String: Any]
        let summary = json?["summary"] as? [String: Int]
        #expect(summary?["passed"] == 1 && summary?["failed"] == 1)
        #expect(try String(contentsOf: out.appendingPathComponent("r.tap"), encoding: .utf8).hasPrefix("TAP version 14\n1..2\n"))
        #expect(try await ProbeProcess.run(["run", "--report", "pdf=x", "."], in: directory).status == 2)
    }

    @Test func reportsGoToStandardOutputOnItsDescriptor() async throws {
        // Renamed into place, a report would replace what the path names: "-" would become a
        // file and, as root, /dev/stdout a regular file. Written on the descriptor, it follows
        // the console output.
        let directory = try scenarios(1) { _ in "sleep 1ms\n" }
        defer { try? FileManager.default.removeItem(at: directory) }
        for target in ["-", "/dev/fd/1", "/proc/self/fd/1"] {
            let output = try await ProbeProcess.run(["run", "--report", "tap=\(target)", "."], in: directory)
            #expect(output.status == 0, "\(target): \(output.stderr)")
            let summary = try #require(output.stdout.range(of: "1 passed, 0 failed"), "\(target): \(output.stdout)")
            #expect(output.stdout[summary.upperBound...].hasSuffix("\nTAP version 14\n1..1\nok 1 - s00 (s00.scn)\n"), "\(target): \(output.stdout)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["s00.scn"], "no file was made for a report: \(left)")
    }

    /// One capture ring for the run: with four jobs over eight scenarios, each scenario's pcap
    /// holds its own connection and nothing of the others', and reads in tshark.
    @Test(.root, .tshark) func fourJobsCaptureEightScenariosEachIntoItsOwnPcap() async throws {
        let tshark = try #require(Requirement.tshark.path)
        let directory = try scenarios(8) { index in
            "var p = free-port\nlisten l 127.0.0.1:{p}\nconnect a 127.0.0.1:{p}\naccept b on l\n"
                + (0..<5).map { "a: send line \"scenario-\(index)-\($0)\"\nb: expect line \"scenario-\(index)-\($0)\"\nsleep 5ms" }.joined(separator: "\n") + "\n"
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await ProbeProcess.run(["run", "--capture", "--keep-pcap", "always", "--pcap-dir", "pcaps", "--jobs", "4", "."], in: directory)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let pcaps = directory.appendingPathComponent("pcaps")
        let files = try FileManager.default.contentsOfDirectory(atPath: pcaps.path).filter { $0.hasSuffix(".pcap") }.sorted()
        try #require(files.count == 8, "\(files)")
        for file in files {
            let index = try #require(Int(file.dropFirst(1).prefix(2)), "\(file)") // s03-….pcap
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tshark)
            process.arguments = ["-r", pcaps.appendingPathComponent(file).path, "-T", "fields", "-e", "tcp.stream", "-e", "tcp.payload"]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            let rows = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "tshark reads \(file)")
            #expect(Set(rows.map { $0.split(separator: "\t", omittingEmptySubsequences: false)[0] }) == ["0"], "\(file) holds one connection")
            let payload = rows.compactMap { $0.split(separator: "\t").dropFirst().first }.joined()
            let text = String(decoding: stride(from: 0, to: payload.count - 1, by: 2).compactMap {
                UInt8(payload[payload.index(payload.startIndex, offsetBy: $0)...].prefix(2), radix: 16)
            }, as: UTF8.self)
            #expect(text == (0..<5).map { "scenario-\(index)-\($0)\r\n" }.joined(), "\(file): \(text)")
        }
    }

    @Test func completionScriptsComeFromTheArgumentParser() async throws {
        let output = try await ProbeProcess.run(["--generate-completion-script", "bash"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("_tcpprobe"))
        #expect(output.stdout.contains("--keep-pcap"))
    }

    @Test(.heavy, .chromium) func theHTMLReportRendersInChromium() async throws {
        let chromium = try #require(Requirement.chromium.path)
        let directory = try scenarios(1) { _ in "var p = free-port\nlisten l 127.0.0.1:{p}\nconnect a 127.0.0.1:{p}\naccept b on l\na: send line \"hi\"\nb: expect line \"hello\" within 100ms\n" }
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await ProbeProcess.run(["run", "--report", "html=r.html", "."], in: directory)
        let html = try String(contentsOf: directory.appendingPathComponent("r.html"), encoding: .utf8)
        #expect(html.contains("<table class=\"ladder") && html.contains("probe · peer"), "a ladder diagram")
        #expect(html.contains("<b>5</b> a: send line &quot;hi&quot;</code>"), "the steps beside it")
        #expect(html.contains("<b>6</b> b: expect line &quot;hello&quot; within 100ms</code><pre class=\"fail\">"), "the failing one with its failure")
        #expect(!html.contains("<script src") && !html.contains("<link "), "a single file with no external assets")
        let screenshot = directory.appendingPathComponent("r.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1100,700",
                             "--screenshot=\(screenshot.path)", directory.appendingPathComponent("r.html").absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        await ProbeProcess.waitUntilExit(process)
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "chromium rendered a PNG")
        #expect(png.count > 10_000, "the screenshot has content")
    }
}
