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
        #expect(console.summary(run).hasPrefix("2 passed (2 wire checks skipped), 2 failed (1 an environment error, not a verdict), 1 skipped in "), "\(console.summary(run))")
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
                                  reason: SampleReason(description: "with the swept message split at offset 2:\nexpected line: \"ok\""))
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
                                  reason: SampleReason(description: "wire from peer: a line ends in a bare LF"), connection: "connection #1")
        failure.namedSegments = [0.450] // the segment with the bare LF, long before the failure
        var result = ScenarioResult(path: "Scenarios/bulk.scn", title: "bulk", outcome: .failed(failure), duration: .seconds(2), log: [], notes: [])
        result.wire = (0..<1200).map { WireEvent(offset: Double($0) / 1000, connection: "connection #1", fromProbe: $0 % 2 == 0,
                                                  flags: "PSH,ACK", length: 1000 + $0, preview: "") }
        result.failedAt = .microseconds(900_500)
        return RunReport(results: [result], startedAt: "2026-01-02T03:04:05Z", duration: .seconds(2))
    }

    /// The ladder's table in `html`.
    static func ladder(_ html: String) throws -> Substring {
        try #require(html.range(of: "<table class=\"ladder").flatMap { start in html.range(of: "</table>").map { html[start.lowerBound..<$0.upperBound] } })
    }

    @Test func aLongLadderKeepsItsFailureAndSaysWhatItLeftOut() throws {
        let html = ReportFormat.html.render(Self.longFailure)
        let table = try Self.ladder(html)
        #expect(table.contains("✘ line 7: assert wire from peer terminator crlf"))
        #expect(table.contains("+0.900s") && table.contains("len 1900") && table.contains("len 1901"), "the segments around the failure are drawn")
        let failure = try #require(table.range(of: "✘ line 7"))
        #expect(table[..<failure.lowerBound].contains("len 1900") && !table[..<failure.lowerBound].contains("len 1901"),
                "the failure is drawn where it happened, not at the end")
        #expect(table.contains("rows left out here (listed below the diagram)"))
        #expect(!table.contains("len 2100"), "a segment long after the failure is not drawn")
        #expect(table.contains("<tr class=\"named\"><td class=\"t\">+0.450s</td>"), "the segment the failure names is drawn, far from the failure, in red")
        #expect(table.contains("len 1450"))
        #expect(html.contains("<details class=\"left-out\"><summary>704 rows left out of the diagram</summary>"))
        #expect(html.contains("+1.100s → connection #1 PSH,ACK len 2100"), "and is listed, folded")
    }

    /// Over TLS the ladder draws each record over the segment that completed it: handshake and
    /// application data blue and dashed, an alert red; WebSocket frames likewise, named by
    /// opcode, fin, length and mask.
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
        #expect(html.contains("<td class=\"record\">connection &apos;c&apos; TLS handshake ClientHello</td>"), "\(html)")
        #expect(html.components(separatedBy: "stroke-dasharray=\"6 3\"").count - 1 == 5, "one dashed arrow per record and frame")
        #expect(html.contains("WebSocket text fin 5 bytes masked &quot;hello&quot;"), "\(html)")
        #expect(html.contains("stroke=\"#cf222e\" stroke-dasharray=\"6 3\""), "the alert in red")
        #expect(html.contains("TLS application-data 6 bytes &quot;pong\\r\\n&quot;"))
    }

    /// A segment a network's link dropped: named so, its arrow stopping halfway at a red cross,
    /// the probe's (captured, then dropped) and the peer's (never captured) alike.
    @Test func aLadderMarksWhatANetworkDropped() throws {
        var result = ScenarioResult(path: "Scenarios/lossy.scn", title: "lossy", outcome: .passed, duration: .seconds(1), log: [], notes: [])
        result.wire = [
            WireEvent(offset: 0.010, connection: "connection #1", fromProbe: true, flags: "SYN", length: 0, preview: "", droppedBy: "n"),
            WireEvent(offset: 1.010, connection: "connection #1", fromProbe: true, flags: "SYN", length: 0, preview: ""),
            WireEvent(offset: 1.020, connection: "connection #1", fromProbe: false, flags: "PSH,ACK", length: 6, preview: "", droppedBy: "n"),
        ]
        let html = ReportFormat.html.render(RunReport(results: [result], startedAt: "2026-01-02T03:04:05Z", duration: .seconds(1)))
        let table = try Self.ladder(html)
        #expect(table.components(separatedBy: "✗ dropped by network &apos;n&apos;").count - 1 == 2, "\(table)")
        // Halfway between the lifelines (20 and 340): the probe's from the left, the peer's from the right.
        #expect(table.contains("<line x1=\"20\" y1=\"6\" x2=\"180\" y2=\"6\" stroke=\"#cf222e\" stroke-dasharray=\"3 2\"/>"), "\(table)")
        #expect(table.contains("<line x1=\"340\" y1=\"6\" x2=\"180\" y2=\"6\" stroke=\"#cf222e\" stroke-dasharray=\"3 2\"/>"), "\(table)")
        #expect(table.components(separatedBy: "stroke-dasharray=\"3 2\"").count - 1 == 2, "the segment that got through is drawn whole")
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
        let table = try Self.ladder(html)
        #expect(table.hasPrefix("<table class=\"ladder hide-acks three\""))
        #expect(table.contains("client · proxy · server") && !table.contains("probe · peer"))
        // The client's ping (left 20 → middle 180), forwarded (180 → right 340), the pong back, in order.
        var rest = table[...]
        for (from, to) in [(20, 180), (180, 340), (340, 180), (180, 20)] {
            let arrow = try #require(rest.range(of: "<line x1=\"\(from)\" y1=\"6\" x2=\"\(to)\""), "an arrow \(from) → \(to)")
            rest = rest[arrow.upperBound...]
        }
    }

    /// The steps beside the ladder: each step's source line on the first of its rows, its
    /// segments marked with its number; the failing step red with what it expected and
    /// received; the segment a failed wire check names red; pure ACKs folded behind a checkbox.
    static var withSteps: ScenarioResult {
        var failure = StepFailure(at: SampleRun.at("Scenarios/ping.scn", 6), step: "expect line \"pong\"",
                                  reason: SampleReason(description: "expected line: \"pong\"\nreceived line: \"pang\""), connection: "connection #1")
        failure.namedSegments = [0.011]
        var result = ScenarioResult(path: "Scenarios/ping.scn", title: "ping", outcome: .failed(failure), duration: .milliseconds(20), log: [], notes: [])
        result.steps = [StepSpan(start: 0.001, location: SampleRun.at("Scenarios/ping.scn", 5), text: "send line \"ping\""),
                        StepSpan(start: 0.010, location: SampleRun.at("Scenarios/ping.scn", 6), text: "expect line \"pong\"")]
        result.wire = [
            WireEvent(offset: 0.002, connection: "connection #1", fromProbe: true, flags: "PSH,ACK", length: 6, preview: "ping\\r\\n",
                      tcp: .init(sequence: 1, acknowledgement: 1, window: 65536)),
            WireEvent(offset: 0.003, connection: "connection #1", fromProbe: false, flags: "ACK", length: 0, preview: "",
                      tcp: .init(sequence: 1, acknowledgement: 7, window: 65536)),
            WireEvent(offset: 0.011, connection: "connection #1", fromProbe: false, flags: "PSH,ACK", length: 6, preview: "pang\\r\\n",
                      tcp: .init(sequence: 1, acknowledgement: 7, window: 65536)),
        ]
        result.failedAt = .milliseconds(12)
        return result
    }

    @Test func theStepsStandBesideTheLadder() throws {
        let html = ReportFormat.html.render(RunReport(results: [Self.withSteps], startedAt: "2026-01-02T03:04:05Z", duration: .seconds(1)))
        let table = try Self.ladder(html)
        let rows = table.components(separatedBy: "<tr").dropFirst(2).map { "<tr" + $0 }
        #expect(rows.count == 6, "two steps, three segments, the failure: \(rows)")
        #expect(rows[0].contains("data-step=\"0\"") && rows[0].contains("<code><b>5</b> send line &quot;ping&quot;</code>"))
        #expect(rows[1].contains("data-step=\"0\"") && rows[1].contains("len 6 win 65536 &quot;ping\\r\\n&quot;"), "the send's segment is the send's")
        #expect(rows[2].hasPrefix("<tr class=\"ack\" data-step=\"0\""), "a pure ACK, folded by default: \(rows[2])")
        #expect(rows[3].hasPrefix("<tr class=\"failed-step\" data-step=\"1\""))
        #expect(rows[3].contains("<b>6</b> expect line &quot;pong&quot;</code><pre class=\"fail\">expected line: &quot;pong&quot;\nreceived line: &quot;pang&quot;</pre>"))
        #expect(rows[4].hasPrefix("<tr class=\"named failed-step\" data-step=\"1\""), "the segment the failure names: \(rows[4])")
        #expect(rows[4].contains("stroke=\"#cf222e\""), "drawn red")
        #expect(rows[5].contains("✘ line 6: expect line &quot;pong&quot; — expected line: &quot;pong&quot;"))
        #expect(table.hasPrefix("<table class=\"ladder hide-acks\""))
        #expect(html.contains("<input type=\"checkbox\" class=\"acks\" data-table=\"ladder0\"> show 1 pure ACK</label>"))
        #expect(!html.contains("<figure"), "a short exchange gets no time–sequence graph")
    }

    /// A bulk transfer into a reader whose window closes: a graph of the peer's data, the
    /// probe's acknowledgements and window edge, the zero windows marked.
    static var slowReader: ScenarioResult {
        var result = ScenarioResult(path: "Scenarios/slow.scn", title: "slow", outcome: .passed, duration: .seconds(1), log: [], notes: [])
        for index in 0..<100 {
            let time = Double(index) / 100
            result.wire.append(WireEvent(offset: time, connection: "connection #1", fromProbe: false, flags: "PSH,ACK", length: 1000, preview: "",
                                         tcp: .init(sequence: 1 + index * 1000, acknowledgement: 1, window: 65536)))
            let window = index >= 60 && index < 70 ? 0 : 16384
            result.wire.append(WireEvent(offset: time + 0.001, connection: "connection #1", fromProbe: true, flags: "ACK", length: 0, preview: "",
                                         tcp: .init(sequence: 1, acknowledgement: 1 + (index + 1) * 1000, window: window)))
        }
        return result
    }

    @Test func aSlowReaderGetsATimeSequenceGraph() throws {
        let html = ReportFormat.html.render(RunReport(results: [Self.slowReader], startedAt: "2026-01-02T03:04:05Z", duration: .seconds(1)))
        let figure = try #require(html.range(of: "<figure class=\"tsg\">").flatMap { start in html.range(of: "</figure>").map { html[start.lowerBound..<$0.upperBound] } })
        #expect(figure.contains("connection #1: peer → probe, 97.7 KiB in 100 segments; 10 zero-window advertisements by the probe."))
        #expect(figure.components(separatedBy: "<circle class=\"zero-window\"").count - 1 == 10)
        let data = try #require(figure.range(of: "<path class=\"data\" d=\"").map { figure[$0.upperBound...].prefix { $0 != "\"" } })
        #expect(data.components(separatedBy: "M").count - 1 == 100, "a bar per data segment")
        #expect(figure.contains("<path class=\"acked\"") && figure.contains("<path class=\"window\""))
        #expect(html.components(separatedBy: "<figure").count - 1 == 1, "the probe's direction carried no data: one graph")
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

    /// In a real browser the page's script lights a step's rows when the pointer is over it,
    /// keeps them lit when it is clicked, and the checkbox unfolds the pure ACKs.
    @Test(.chromium) func hoverLightsAStepsSegmentsInChromium() async throws {
        let chromium = try #require(Requirement.chromium.path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-hover-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = ReportFormat.html.render(RunReport(results: [Self.withSteps, Self.slowReader], startedAt: "2026-01-02T03:04:05Z", duration: .seconds(1)))
        // What a user does: the pointer over step 1's source line, a click on step 0's, the box ticked.
        let user = """
            <script>
            var table = document.getElementById('ladder0');
            table.querySelector('td.step[data-step="1"]').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
            document.body.dataset.hovered = Array.from(table.querySelectorAll('tr.lit')).map(function (r) { return r.dataset.step; }).join(',');
            table.querySelector('td.step[data-step="0"]').dispatchEvent(new MouseEvent('click', {bubbles: true}));
            table.dispatchEvent(new MouseEvent('mouseleave'));
            document.body.dataset.pinned = Array.from(table.querySelectorAll('tr.lit')).map(function (r) { return r.dataset.step; }).join(',');
            var box = document.querySelector('input.acks[data-table="ladder0"]');
            box.checked = true; box.dispatchEvent(new Event('change'));
            document.body.dataset.acks = getComputedStyle(table.querySelector('tr.ack')).display;
            </script>
            """
        let page = directory.appendingPathComponent("r.html")
        try Data(report.replacing("</body>", with: user + "</body>").utf8).write(to: page)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.absoluteString]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let dom = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(dom.contains("data-hovered=\"1,1,1\""), "step 1's row, its segment and the failure lit: \(dom.prefix(400))")
        #expect(dom.contains("data-pinned=\"0,0,0\""), "after a click on step 0, its three rows stay lit")
        #expect(dom.contains("data-acks=\"table-row\""), "the pure ACKs unfolded")
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
