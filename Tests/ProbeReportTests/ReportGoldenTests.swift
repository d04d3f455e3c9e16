import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ProbeReport
import ProbeResults
import TestSupport
import Testing

/// Each report format over a fixed run equals its golden file in Tests/Fixtures/reports.
/// To accept a deliberate change: TCPPROBE_UPDATE_GOLDEN=1 swift test --filter ReportGoldenTests
@Suite struct ReportGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/reports")

    @Test(arguments: [(ReportFormat.junit, "sample.xml"), (.tap, "sample.tap"), (.json, "sample.json"), (.html, "sample.html")])
    func matchesTheGoldenFile(_ format: ReportFormat, _ name: String) throws {
        let rendered = format.render(SampleRun.report)
        let golden = Self.directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["TCPPROBE_UPDATE_GOLDEN"] == "1" {
            try Data(rendered.utf8).write(to: golden)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(rendered == expected)
    }

    /// What `tcpprobe run` prints for the sample run: each scenario as it ends, then the summary;
    /// plain, coloured, and verbose (with the step logs of passing scenarios).
    @Test(arguments: [(false, false, "sample.console"), (true, false, "sample.colour.console"), (false, true, "sample.verbose.console")])
    func theConsoleMatchesTheGoldenFile(_ colour: Bool, _ verbose: Bool, _ name: String) throws {
        let reporter = ConsoleReporter(useColour: colour, verbose: verbose)
        let run = SampleRun.report
        let rendered = (run.results.map(reporter.render) + [reporter.summary(run)]).joined(separator: "\n") + "\n"
        let golden = Self.directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["TCPPROBE_UPDATE_GOLDEN"] == "1" {
            try Data(rendered.utf8).write(to: golden)
        }
        #expect(rendered == (try String(contentsOf: golden, encoding: .utf8)))
    }

    @Test func junitHasACasePerScenarioSweepOffsetAndParallelBlock() throws {
        let xml = ReportFormat.junit.render(SampleRun.report)
        let document = try XMLDocument(xmlString: xml)
        let cases = try document.nodes(forXPath: "//testcase")
        #expect(cases.count == 5 + 3 + 1)
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 2, "the failed scenario and its parallel block")
        #expect(try document.nodes(forXPath: "//testcase/error").count == 1)
        #expect(try document.nodes(forXPath: "//testcase/skipped").count == 1)
        #expect(try document.nodes(forXPath: "//testsuite").count == 5, "one testsuite per scenario file")
    }

    /// The sample run, the same run with notes of its own (processes tcpprobe stopped), and
    /// with wire checks that a run without capture skipped.
    static let runs = [SampleRun.report, withNotes, withSkippedWire]
    static var withSkippedWire: RunReport {
        var run = SampleRun.report
        run.results[4].skippedWireChecks = 2
        return run
    }

    @Test func skippedWireChecksAreCountedAndMarkedInEveryFormat() throws {
        let run = Self.withSkippedWire
        let console = ConsoleReporter(useColour: false, verbose: false)
        #expect(console.summary(run).hasPrefix("2 passed (2 wire checks skipped), 2 failed, 1 skipped in "), "\(console.summary(run))")
        #expect(console.render(run.results[4]).hasPrefix("✔ sweep (Scenarios/sweep.scn) 300ms (2 wire checks skipped)"), "\(console.render(run.results[4]))")
        #expect(!console.summary(SampleRun.report).contains("wire"), "a run whose wire checks all ran says nothing of them")
        #expect(ReportFormat.tap.render(run).contains("ok 5 - sweep (Scenarios/sweep.scn)\n# 2 wire checks skipped: capture was not possible\n"))
        let json = try JSONSerialization.jsonObject(with: Data(ReportFormat.json.render(run).utf8)) as? [String: Any]
        #expect((json?["summary"] as? [String: Any])?["skippedWireChecks"] as? Int == 2)
        #expect(((json?["scenarios"] as? [[String: Any]])?[4])?["skippedWireChecks"] as? Int == 2)
        let junit = try XMLDocument(xmlString: ReportFormat.junit.render(run))
        #expect(try junit.nodes(forXPath: "//testcase[@name='sweep [2 wire checks skipped]']/skipped").count == 1)
        #expect(ReportFormat.html.render(run).contains("(2 wire checks skipped)"))
    }
    /// A swept scenario that failed at one offset is one failure, counted on that offset, and
    /// every run of the sweep carries its own time.
    @Test func aSweepFailingAtOneOffsetIsOneJUnitFailure() throws {
        var failure = StepFailure(at: SampleRun.at("Scenarios/sweep.scn", 4), step: "expect line \"ok\"",
                                  message: "with the swept message split at offset 2:\nexpected line: \"ok\"")
        failure.connection = "connection #1"
        var result = ScenarioResult(path: "Scenarios/sweep.scn", title: "sweep", outcome: .failed(failure), duration: .milliseconds(100),
                                    log: [], notes: [])
        result.sweep = SweepReport(plan: SplitSweep(messageLength: 4, limit: 256),
                                   outcomes: [(1, true, .milliseconds(20)), (2, false, .milliseconds(30)), (3, true, .milliseconds(25))])
        let run = RunReport(results: [result], startedAt: "2026-01-02T03:04:05Z", duration: .milliseconds(100))
        let junit = try XMLDocument(xmlString: ReportFormat.junit.render(run))
        #expect(try junit.nodes(forXPath: "/testsuites[@failures='1']").count == 1, "\(ReportFormat.junit.render(run))")
        #expect(try junit.nodes(forXPath: "//testcase[@name='sweep']/failure").isEmpty, "the run with the message whole passed")
        let atTwo = try junit.nodes(forXPath: "//testcase[@name='sweep [split at offset 2]']/failure/@message").map { $0.stringValue ?? "" }
        #expect(atTwo == ["with the swept message split at offset 2:"], "the failure itself, on its offset")
        let times = try junit.nodes(forXPath: "//testcase/@time").map { $0.stringValue ?? "" }
        #expect(times == ["0.025", "0.020", "0.030", "0.025"], "the whole-message run, then each offset's: \(times)")
    }

    /// A failing scenario of 1,200 segments: its ladder draws 500 rows, the failure where it
    /// happened, the segments before it and the one it names among them, and lists the rest, folded.
    static var longFailure: RunReport {
        var failure = StepFailure(at: SampleRun.at("Scenarios/bulk.scn", 7), step: "assert wire from peer terminator crlf",
                                  message: "wire from peer: a line ends in a bare LF", connection: "connection #1")
        failure.namedSegments = [0.450] // the segment with the bare LF, long before the failure
        var result = ScenarioResult(path: "Scenarios/bulk.scn", title: "bulk", outcome: .failed(failure), duration: .seconds(2), log: [], notes: [])
        result.wire = (0..<1200).map { WireEvent(offset: Double($0) / 1000, connection: "connection #1", fromProbe: $0 % 2 == 0,
                                                  flags: "PSH,ACK", length: 1000 + $0, preview: "") }
        result.failedAt = .microseconds(900_500)
        return RunReport(results: [result], startedAt: "2026-01-02T03:04:05Z", duration: .seconds(2))
    }

    @Test func aLongLadderKeepsItsFailureAndSaysWhatItLeftOut() throws {
        let html = ReportFormat.html.render(Self.longFailure)
        let svg = try #require(html.range(of: "<svg").flatMap { start in html.range(of: "</svg>").map { html[start.lowerBound..<$0.upperBound] } })
        #expect(svg.contains("✘ line 7: assert wire from peer terminator crlf"))
        #expect(svg.contains("+0.900s") && svg.contains("len 1900") && svg.contains("len 1901"), "the segments around the failure are drawn")
        let failure = try #require(svg.range(of: "✘ line 7"))
        #expect(svg[..<failure.lowerBound].contains("len 1900") && !svg[..<failure.lowerBound].contains("len 1901"),
                "the failure is drawn where it happened, not at the end")
        #expect(svg.contains("rows left out here (listed below the diagram)"))
        #expect(!svg.contains("len 2100"), "a segment long after the failure is not drawn")
        #expect(svg.contains("len 1450"), "the segment the failure names is drawn, far from the failure")
        #expect(html.contains("<details class=\"left-out\"><summary>704 rows left out of the diagram</summary>"))
        #expect(html.contains("+1.100s → connection #1 PSH,ACK len 2100"), "and is listed, folded")
    }

    /// Over TLS the ladder draws each record over the segment that completed it: handshake and
    /// application data blue and dashed, an alert red, and the left-out list keeps their arrows;
    /// WebSocket frames likewise, named by opcode, fin, length and mask.
    @Test func aTLSLadderDrawsRecordsAndFramesOverSegments() throws {
        var result = ScenarioResult(path: "Scenarios/tls.scn", title: "tls", outcome: .passed, duration: .seconds(1), log: [], notes: [])
        result.wire = [
            WireEvent(offset: 0.010, connection: "connection 'c'", fromProbe: true, flags: "PSH,ACK", length: 517, preview: "\\x16\\x03\\x01"),
            WireEvent(offset: 0.010, connection: "connection 'c'", fromProbe: true, flags: "TLS", length: 512, preview: "", unit: "TLS handshake ClientHello"),
            WireEvent(offset: 0.012, connection: "connection 'c'", fromProbe: false, flags: "PSH,ACK", length: 700, preview: ""),
            WireEvent(offset: 0.012, connection: "connection 'c'", fromProbe: false, flags: "TLS", length: 90, preview: "", unit: "TLS handshake ServerHello"),
            WireEvent(offset: 0.020, connection: "connection 'c'", fromProbe: true, flags: "TLS", length: 23, preview: "",
                      unit: "TLS application-data 6 bytes \"pong\\r\\n\""),
            WireEvent(offset: 0.021, connection: "connection 'c'", fromProbe: true, flags: "WebSocket", length: 5, preview: "",
                      unit: "WebSocket text fin 5 bytes masked \"hello\""),
            WireEvent(offset: 0.030, connection: "connection 'c'", fromProbe: false, flags: "TLS", length: 19, preview: "", unit: "TLS alert close_notify (decrypted)"),
        ]
        let html = ReportFormat.html.render(RunReport(results: [result], startedAt: "2026-01-02T03:04:05Z", duration: .seconds(1)))
        #expect(html.contains("class=\"record\">connection &apos;c&apos; TLS handshake ClientHello</text>") || html.contains("class=\"record\">connection 'c' TLS handshake ClientHello</text>"), "\(html)")
        #expect(html.components(separatedBy: "stroke-dasharray=\"6 3\"").count - 1 == 5, "one dashed arrow per record and frame")
        #expect(html.contains("WebSocket text fin 5 bytes masked &quot;hello&quot;") || html.contains("WebSocket text fin 5 bytes masked \"hello\""), "\(html)")
        #expect(html.contains("stroke=\"#cf222e\" stroke-dasharray=\"6 3\""), "the alert in red")
        #expect(html.contains("TLS application-data 6 bytes &quot;pong\\r\\n&quot;") || html.contains("TLS application-data 6 bytes \"pong\\r\\n\""))
    }

    /// A proxy's legs on three lifelines: the front leg between client and proxy, the back leg
    /// between proxy and server, each arrow from its sender.
    @Test func aProxyLadderHasThreeLifelines() throws {
        var result = ScenarioResult(path: "Scenarios/proxy.scn", title: "proxy", outcome: .passed, duration: .seconds(1), log: [], notes: [])
        result.wire = [
            WireEvent(offset: 0.010, connection: "proxy 'p' connection 1", fromProbe: false, flags: "PSH,ACK", length: 6, preview: "ping", proxyLeg: .front),
            WireEvent(offset: 0.011, connection: "proxy 'p' connection 1", fromProbe: true, flags: "PSH,ACK", length: 6, preview: "ping", proxyLeg: .back),
            WireEvent(offset: 0.012, connection: "proxy 'p' connection 1", fromProbe: false, flags: "PSH,ACK", length: 6, preview: "pong", proxyLeg: .back),
            WireEvent(offset: 0.013, connection: "proxy 'p' connection 1", fromProbe: true, flags: "PSH,ACK", length: 6, preview: "pong", proxyLeg: .front),
        ]
        let html = ReportFormat.html.render(RunReport(results: [result], startedAt: "2026-01-02T03:04:05Z", duration: .seconds(1)))
        #expect(html.contains(">client</text>") && html.contains(">proxy</text>") && html.contains(">server</text>"), "\(html)")
        #expect(!html.contains(">probe</text>"))
        // The client's ping (left 90 → middle 350), forwarded (350 → right 610), the pong back.
        for (from, to) in [(90, 350), (350, 610), (610, 350), (350, 90)] {
            #expect(html.contains("<line x1=\"\(from)\" y1=") && html.contains("x2=\"\(to)\""), "an arrow \(from) → \(to)")
        }
        #expect(html.contains("<line x1=\"90\" y1=\"30\" x2=\"350\" y2=\"38\""), "\(html)")
        #expect(html.contains("<line x1=\"350\" y1=\"96\" x2=\"90\" y2=\"104\""), "\(html)")
    }

    @Test(.chromium) func aLongLadderRendersInChromium() async throws {
        let chromium = try #require(Requirement.chromium.path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-ladder-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("r.html")
        try Data(ReportFormat.html.render(Self.longFailure).utf8).write(to: page)
        let screenshot = directory.appendingPathComponent("r.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1100,11200",
                             "--screenshot=\(screenshot.path)", page.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "chromium rendered a PNG")
        #expect(png.count > 50_000, "a tall page of 500 rows: \(png.count) bytes")
    }

    static var withNotes: RunReport {
        var run = SampleRun.report
        run.notes = ["stopped 1 process that subjects left running in the background (run servers in the foreground):\n  pid 41 (nginx: master process <nginx.conf>)"]
        return run
    }

    @Test func theRunsOwnNotesReachEveryFormat() throws {
        let run = Self.withNotes
        let json = try JSONSerialization.jsonObject(with: Data(ReportFormat.json.render(run).utf8)) as? [String: Any]
        #expect(json?["notes"] as? [String] == run.notes)
        let junit = try XMLDocument(xmlString: ReportFormat.junit.render(run))
        let notes = try junit.nodes(forXPath: "//testsuite[@name='tcpprobe run']/system-err")
        #expect(notes.map { $0.stringValue } == run.notes)
        #expect(try junit.nodes(forXPath: "//testcase").count == 5 + 3 + 1, "the notes' suite has no test case")
        let tap = ReportFormat.tap.render(run).split(separator: "\n")
        #expect(tap.contains("# stopped 1 process that subjects left running in the background (run servers in the foreground):"))
        #expect(tap.contains("#   pid 41 (nginx: master process <nginx.conf>)"))
        #expect(ReportFormat.html.render(run).contains("pid 41 (nginx: master process &lt;nginx.conf&gt;)"))
        let quiet = try JSONSerialization.jsonObject(with: Data(ReportFormat.json.render(SampleRun.report).utf8)) as? [String: Any]
        #expect(quiet?.keys.contains("notes") == false, "a run with nothing to say has no notes key")
    }

    @Test(.xmllint, arguments: runs)
    func junitIsValidAgainstTheJenkinsSchema(_ run: RunReport) throws {
        let xmllint = try #require(Requirement.xmllint.path)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("junit-\(UUID()).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(ReportFormat.junit.render(run).utf8).write(to: file)
        let status = try Self.run(xmllint, ["--noout", "--schema", Self.directory.appendingPathComponent("junit.xsd").path, file.path])
        #expect(status == 0)
    }

    @Test(.jsonschema, arguments: runs)
    func jsonIsValidAgainstTheDocumentedSchema(_ run: RunReport) throws {
        let schema = Self.directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/report-schema.json")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(ReportFormat.json.render(run).utf8).write(to: file)
        let script = "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))"
        #expect(try Self.run("/usr/bin/env", ["python3", "-c", script, file.path, schema.path]) == 0)
        // And a broken document is rejected, so the check can fail.
        try Data(#"{"tool":"tcpprobe"}"#.utf8).write(to: file)
        #expect(try Self.run("/usr/bin/env", ["python3", "-c", script, file.path, schema.path]) != 0)
    }

    @Test func tapIsVersion14WithAPlanAndDiagnostics() {
        let tap = ReportFormat.tap.render(SampleRun.report)
        let lines = tap.split(separator: "\n")
        #expect(lines.first == "TAP version 14")
        #expect(lines.dropFirst().first == "1..5")
        #expect(lines.contains("not ok 2 - ping <pong> & \"friends\" (Scenarios/ping.scn)"))
        #expect(lines.contains("ok 4 - slow one (Scenarios/slow.scn) # SKIP tag slow"))
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
