import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Glibc
import TestSupport
import Testing

/// `tcpprobe h2spec`: h2spec's command line on the HTTP/2 suite, against nghttpd (which real
/// h2spec passes 145 of 146 cases of: it answers a HEADERS on a stream lower than one already
/// opened, http2/5.1.1/2, instead of failing the connection), its console layout and summary,
/// its JUnit layout as well-formed XML, and SPEC selecting as h2spec's does.
@Suite(.serialized) struct H2SpecCommandTests {
    static let suite = ConformanceSuiteTests.scenarios + "/http2-server"

    /// nghttpd on a free port serving the suite's index.html, in cleartext or with `tls`
    /// (its key and certificate); 10 s to listen.
    static func nghttpd(tls: (certificate: String, key: String)? = nil) async throws -> (process: Process, port: Int) {
        let (fd, port) = try LoopbackSocket.bound(listening: false)
        close(fd)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FileManager.default.fileExists(atPath: "/usr/sbin/nghttpd") ? "/usr/sbin/nghttpd" : "/usr/bin/nghttpd")
        process.arguments = ["-d", suite + "/lib", String(port)] + (tls.map { [$0.key, $0.certificate] } ?? ["--no-tls"])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if await Eventually.holds(every: .milliseconds(50), { LoopbackSocket.listens(on: port) }) { return (process, port) }
        process.terminate()
        throw CancellationError()
    }

    @Test(.nghttpd, .wholeSuite) func theWholeSuiteAgainstNghttpdGivesH2specsVerdictAndItsReports() async throws {
        let server = try await Self.nghttpd()
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        try await ProbeProcess.inDirectory(holding: [:]) { directory in
            let output = try await ProbeProcess.run(["h2spec", "-p", String(server.port), "-j", "report.xml", "--suite", Self.suite], in: directory)
            #expect(output.status == 1, "a case failed: \(output.stderr)")
            #expect(output.stdout.hasPrefix("Generic tests for HTTP/2 server\n  1. Starting HTTP/2\n    ✔ 1: Sends a client connection preface\n"), "\(output.stdout.prefix(300))")
            #expect(output.stdout.contains("\n      6.9.1. The Flow-Control Window\n        ✔ 1: Sends SETTINGS frame to set the initial window size to 1 and sends HEADERS frame\n"))
            #expect(output.stdout.contains("\nFailures: \n\nHypertext Transfer Protocol Version 2 (HTTP/2)\n  5. Streams and Multiplexing\n    5.1. Stream States\n      5.1.1. Stream Identifiers\n"
                + "        × 2: Sends stream identifier that is numerically smaller than previous\n"
                + "          -> The endpoint MUST respond with a connection error of type PROTOCOL_ERROR.\n"), "\(output.stdout)")
            #expect(output.stdout.hasSuffix("146 tests, 145 passed, 0 skipped, 1 failed\n"), "\(output.stdout.suffix(600))")
            let xml = try Data(contentsOf: directory.appendingPathComponent("report.xml"))
            let counter = JUnitReading()
            let parser = XMLParser(data: xml)
            parser.delegate = counter
            #expect(parser.parse(), "well-formed: \(String(describing: parser.parserError))")
            #expect(counter.elements["testcase"] == 146)
            #expect(counter.elements["failure"] == 1)
            #expect(counter.packages.contains("http2/6.9.1") && counter.packages.contains("hpack/2.3.3"))
        }
    }

    /// `-t` speaks TLS with ALPN h2; without `-k` a self-signed server fails verification, saying
    /// so once, before any case.
    @Test(.nghttpd, .wholeSuite) func tlsRunsTheCasesOverTLSAndKSkipsVerification() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-h2spec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await Self.nghttpd(tls: try TestCertificate.make(in: directory))
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        let insecure = try await ProbeProcess.run(["h2spec", "-t", "-k", "-p", String(server.port), "--suite", Self.suite, "generic", "http2/6.5"])
        #expect(insecure.status == 0, "\(insecure.stdout)\(insecure.stderr)")
        #expect(insecure.stdout.hasSuffix("54 tests, 54 passed, 0 skipped, 0 failed\n"), "\(insecure.stdout.suffix(400))")
        let verified = try await ProbeProcess.run(["h2spec", "-t", "-p", String(server.port), "--suite", Self.suite, "generic/1"])
        #expect(verified.status == 1)
        #expect(verified.stdout.isEmpty && verified.stderr.contains("is self-signed and not trusted"), "\(verified.stdout)\(verified.stderr)")
    }

    /// linechat's HTTP/2 server (NIOHTTP2) on a free port, with `fault` planted; 10 s to listen.
    /// `http2: false`: its line server, which speaks no HTTP/2.
    static func linechat(fault: String? = nil, tls: [String] = [], http2: Bool = true) async throws -> (process: Process, port: Int) {
        let (fd, port) = try LoopbackSocket.bound(listening: false)
        close(fd)
        let process = Process()
        process.executableURL = ProbeProcess.linechat
        process.arguments = ["serve"] + (http2 ? ["--http2"] : []) + ["--port", String(port)] + (fault.map { ["--fault", $0] } ?? []) + (tls.isEmpty ? [] : ["--tls"] + tls)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        if await Eventually.holds(every: .milliseconds(50), { LoopbackSocket.listens(on: port) }) { return (process, port) }
        process.terminate()
        throw CancellationError()
    }

    /// Runs the cases `ids` (with -S) against `port`: the ids of those that failed, and of all that ran.
    static func verdicts(of ids: [String], port: Int) async throws -> (failed: Set<String>, ran: Set<String>) {
        let titles = try String(contentsOfFile: suite + "/lib/cases.tsv", encoding: .utf8).split(separator: "\n").reduce(into: [String: String]()) { ids, line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            ids[fields[0].split(separator: "/").dropLast().joined(separator: "/") + "\t" + fields[2]] = String(fields[0])
        }
        return try await ProbeProcess.inDirectory(holding: [:]) { directory in
            _ = try await ProbeProcess.run(["h2spec", "-S", "-p", String(port), "-j", "report.xml", "--suite", suite] + ids, in: directory)
            let reading = JUnitReading()
            let parser = XMLParser(data: try Data(contentsOf: directory.appendingPathComponent("report.xml")))
            parser.delegate = reading
            #expect(parser.parse())
            let ran = reading.cases.map { (titles[$0.package + "\t" + $0.title] ?? "?", $0.failed) }
            return (Set(ran.filter(\.1).map(\.0)), Set(ran.map(\.0)))
        }
    }

    /// The project's own HTTP/2 server, on NIOHTTP2, passes every case, the strict one too.
    @Test(.wholeSuite) func linechatsHTTP2ServerPassesEveryCase() async throws {
        let server = try await Self.linechat()
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        let output = try await ProbeProcess.run(["h2spec", "-S", "-p", String(server.port), "--suite", Self.suite])
        #expect(output.status == 0, "\(output.stdout.suffix(2000))")
        #expect(output.stdout.hasSuffix("147 tests, 147 passed, 0 skipped, 0 failed\n"), "\(output.stdout.suffix(2000))")
    }

    /// The cases h2spec skips when the page has no body are skipped here too, saying why, and
    /// a skip is no failure: the exit status is 0 and the JUnit report counts it.
    @Test func casesH2specSkipsAreSkippedWithTheReason() async throws {
        let server = try await Self.linechat()
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("h2spec-skip-\(UUID().uuidString).xml").path
        defer { try? FileManager.default.removeItem(atPath: junit) }
        let output = try await ProbeProcess.run(["h2spec", "-p", String(server.port), "-P", "/empty", "-j", junit, "--suite", Self.suite,
                                                 "http2/6.5.3", "http2/6.9.1/1", "http2/6.9.2"])
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.stdout.hasSuffix("6 tests, 2 passed, 4 skipped, 0 failed\n"), "\(output.stdout)")
        #expect(output.stdout.contains("        2: Sends a SETTINGS frame for window size to be negative\n"
                                       + "             Skipped: the answer at /empty has a body under 5 bytes: h2spec skips this case then"), "\(output.stdout)")
        let report = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(report.contains(#"package="http2/6.9.2" id="6.9.2" tests="3" skipped="2" failures="0""#), "\(report)")
    }

    /// SPEC loads only the selected cases' files: a broken file of a case not selected stops
    /// nothing, and the same file stops a run that selects its case, naming it.
    @Test func aSelectionLoadsOnlyItsCasesFiles() async throws {
        let server = try await Self.linechat()
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("h2spec-suite-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: Self.suite, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try "connect {url}\nsend frame nonsense\n".write(toFile: copy + "/http2-6-7-1.scn", atomically: true, encoding: .utf8)
        let other = try await ProbeProcess.run(["h2spec", "-p", String(server.port), "--suite", copy, "http2/6.5/1", "http2/6.7/2"])
        #expect(other.status == 0, "\(other.stdout)\(other.stderr)")
        #expect(other.stdout.hasSuffix("2 tests, 2 passed, 0 skipped, 0 failed\n"), "\(other.stdout)")
        let selected = try await ProbeProcess.run(["h2spec", "-p", String(server.port), "--suite", copy, "http2/6.7"])
        #expect(selected.status != 0 && selected.stderr.contains("http2-6-7-1.scn:2"), "\(selected.stdout)\(selected.stderr)")
    }

    /// The request those cases make first must be answered: against a server that speaks no
    /// HTTP/2 they fail, as h2spec's do, rather than skip.
    @Test func aFailedRequestBeforeASkipFailsTheCase() async throws {
        let server = try await Self.linechat(http2: false)
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        let output = try await ProbeProcess.run(["h2spec", "-p", String(server.port), "-o", "1", "--suite", Self.suite, "http2/6.5.3/1", "http2/6.9.1/1"])
        #expect(output.status == 1, "\(output.stdout)")
        #expect(output.stdout.hasSuffix("2 tests, 0 passed, 0 skipped, 2 failed\n"), "\(output.stdout)")
        #expect(output.stdout.contains("connect body {url}\n") && output.stdout.contains("HTTP/2 handshake"), "\(output.stdout)")
    }

    /// `-v` prints each case's step log under it, from the connect to the verdict; without it
    /// the scenarios keep no log (they do not build one) and none is printed.
    @Test func verboseIsEachCasesStepLog() async throws {
        let server = try await Self.linechat()
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        let arguments = ["h2spec", "-p", String(server.port), "--suite", Self.suite, "generic/1/1", "http2/6.7/1"]
        let verbose = try await ProbeProcess.run(arguments + ["-v"])
        let plain = try await ProbeProcess.run(arguments)
        #expect(verbose.status == 0 && plain.status == 0, "\(verbose.stdout)\(plain.stdout)")
        let logLines = verbose.stdout.split(separator: "\n").filter { $0.contains("[generic-1-1.scn:") || $0.contains("[http2-6-7-1.scn:") }
        #expect(logLines.contains { $0.contains("[generic-1-1.scn:") && $0.contains("connected") }, "\(verbose.stdout)")
        #expect(logLines.contains { $0.contains("[http2-6-7-1.scn:") && $0.contains("PING") }, "\(verbose.stdout)")
        #expect(!plain.stdout.contains(".scn:"), "\(plain.stdout)")
        #expect(plain.stdout.hasSuffix("2 tests, 2 passed, 0 skipped, 0 failed\n"), "\(plain.stdout)")
    }

    /// A server that is not there is one error, as h2spec stops at its first failed dial, not
    /// a failure for each case: status 1, nothing on stdout. (A TLS handshake that fails is
    /// too: ciphersAreOfferedOverTLS.)
    @Test func aServerThatIsNotThereIsOneError() async throws {
        let (fd, port) = try LoopbackSocket.bound(listening: false)
        close(fd)
        let output = try await ProbeProcess.run(["h2spec", "-p", String(port), "--suite", Self.suite])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.isEmpty && output.stderr == "error: cannot connect to 127.0.0.1:\(port): refused (nothing listens there)\n",
                "\(output.stdout)\(output.stderr)")
    }

    /// `--version` prints a version and exits 0, as h2spec's does, and `--dryrun` the titles,
    /// with no port needed; otherwise `-p` is required. (A release prints its VERSION file's:
    /// release/check.)
    @Test func versionAndDryRunNeedNoPort() async throws {
        let version = try await ProbeProcess.run(["h2spec", "--version"])
        #expect(version.status == 0 && version.stdout == "Version: tcpprobe development build\n", "\(version.stdout)")
        let root = try await ProbeProcess.run(["--version"])
        #expect(root.status == 0 && root.stdout == "development build\n", "\(root.stdout)")
        let noPort = try await ProbeProcess.run(["h2spec", "--suite", Self.suite])
        #expect(noPort.status == 2 && noPort.stderr.contains("-p PORT is required"), "\(noPort.stderr)")
        // --dryrun prints the titles only, as docs/language.md shows it, with no port either.
        let titles = try await ProbeProcess.run(["h2spec", "--dryrun", "--suite", Self.suite, "generic/1"])
        #expect(titles.status == 0 && titles.stdout.contains("    1: Sends a client connection preface\n"), "\(titles.stdout)\(titles.stderr)")
    }

    /// A binary built from source finds the suite of the package it was built in, wherever it
    /// runs (a release finds its own beside `bin/`); a copy found in neither place says where it
    /// looked.
    @Test func aBuiltBinaryFindsItsPackagesSuiteFromAnyFolder() async throws {
        try await ProbeProcess.inDirectory(holding: [:]) { directory in
            let titles = try await ProbeProcess.run(["h2spec", "--dryrun", "generic/1"], in: directory)
            #expect(titles.status == 0 && titles.stdout.contains("    1: Sends a client connection preface\n"), "\(titles.stdout)\(titles.stderr)")
            let copy = directory.appendingPathComponent("tcpprobe")
            try FileManager.default.copyItem(at: ProbeProcess.binary, to: copy)
            let lost = try await ProbeProcess.run(["h2spec", "--dryrun", "generic/1"], in: directory, executable: copy)
            let top = directory.deletingLastPathComponent().resolvingSymlinksInPath().path
            #expect(lost.status == 2 && lost.stderr == "error: cannot find the suite: neither Scenarios/http2-server nor \(top)/Scenarios/http2-server; name it with --suite\n",
                    "\(lost.stderr)")
        }
    }

    /// `--jobs` cases run at once against the one server, as the command's help says (h2spec
    /// runs them one by one; `tcpprobe run` runs the suite's scenarios against a given server one
    /// at a time): four cases against a server that accepts and never answers hold four
    /// connections open at once, each until its handshake times out.
    @Test func jobsCasesRunAtOnce() async throws {
        let (listener, port) = try LoopbackSocket.bound(listening: true, backlog: 16)
        defer { close(listener) }
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        let specs = ["generic/2/1", "generic/2/2", "generic/2/3", "generic/2/4"]
        async let output = ProbeProcess.run(["h2spec", "-p", String(port), "-o", "3", "--jobs", "4", "--suite", Self.suite] + specs)
        var open: [Int32] = []
        var most = 0
        let deadline = Date().addingTimeInterval(15)
        while most < 4, Date() < deadline {
            let accepted = accept(listener, nil, nil)
            if accepted >= 0 { open.append(accepted) }
            // A connection is still open while reading it finds nothing more yet, not its end (a
            // FIN or a reset) after what the case sent (its preface and SETTINGS).
            var bytes = [UInt8](repeating: 0, count: 4096)
            open = open.filter { fd in
                var read = recv(fd, &bytes, bytes.count, Int32(MSG_DONTWAIT))
                for _ in 0..<64 where read > 0 { read = recv(fd, &bytes, bytes.count, Int32(MSG_DONTWAIT)) }
                if read < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return true }
                close(fd)
                return false
            }
            most = max(most, open.count)
            if accepted < 0 { usleep(5_000) }
        }
        open.forEach { close($0) }
        #expect(most == 4, "at most \(most) of the 4 cases' connections were open at once")
        let result = try await output
        #expect(result.status == 1 && result.stdout.hasSuffix("4 tests, 0 passed, 0 skipped, 4 failed\n"), "\(result.stdout)")
    }

    /// `-c` offers those TLS 1.2 cipher suites, as h2spec's does: a name BoringSSL does not know
    /// fails the connect that would offer it, saying which; so does an unverified certificate
    /// without `-k`, once, before any case (h2spec stops so at its first dial).
    @Test func ciphersAreOfferedOverTLS() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("h2spec-ciphers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (certificate, key) = try TestCertificate.make(in: folder)
        let server = try await Self.linechat(tls: [certificate, key])
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        let arguments = ["h2spec", "-t", "-k", "-p", String(server.port), "--suite", Self.suite, "generic/1"]
        let known = try await ProbeProcess.run(arguments + ["-c", "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256"])
        #expect(known.status == 0 && known.stdout.hasSuffix("1 tests, 1 passed, 0 skipped, 0 failed\n"), "\(known.stdout)")
        let unknown = try await ProbeProcess.run(arguments + ["--ciphers", "BOGUS"])
        // The connect made before the cases fails so: one error.
        #expect(unknown.status == 1 && unknown.stdout.isEmpty && unknown.stderr.contains("'BOGUS' is not a TLS 1.2 cipher suite tcpprobe knows"),
                "\(unknown.stdout)\(unknown.stderr)")
        let unverified = try await ProbeProcess.run(["h2spec", "-t", "-p", String(server.port), "--suite", Self.suite])
        #expect(unverified.status == 1 && unverified.stdout.isEmpty
                    && unverified.stderr.hasPrefix("error: TLS handshake failed: certificate verification failed: the certificate CN="),
                "\(unverified.stdout)\(unverified.stderr)")
    }

    /// Each planted fault of linechat's HTTP/2 server, the cases that must catch it, and cases
    /// it must leave passing.
    static let plantedFaults: [(fault: String, caught: [String], unaffected: [String])] = [
        ("h2-ping-unanswered", ["http2/6.7/1", "generic/3.7/1"], ["http2/6.1/1", "http2/5.1/12"]),
        ("h2-data-on-stream-0", ["http2/6.1/1"], ["generic/3.1/1", "http2/6.7/1"]),
        // A close follows its GOAWAY, which passes a connection error as in h2spec: 6.9.1/2 wants the GOAWAY's code.
        ("h2-wrong-goaway-code", ["http2/6.9.1/2"], ["http2/6.1/1", "http2/6.7/1"]),
        // The strict case wants the GOAWAY; the others take the reset as the connection's end.
        ("h2-rst-without-goaway", ["http2/5.4.1/2"], ["http2/5.4.1/1", "http2/6.1/1"]),
        ("h2-window-overflow", ["http2/6.9.1/2", "http2/6.9.1/3"], ["http2/6.9/1", "http2/6.9.1/1"]),
        ("h2-headers-on-closed-stream", ["http2/5.1/6", "http2/5.1/12"], ["http2/8.1/1", "generic/2/1"]),
    ]

    /// A step of `.ci/run` of its own, with the line suites' plantings (TCPPROBE_PLANTINGS=1):
    /// each waits out a case's timeout or two, about 18 s in all.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TCPPROBE_PLANTINGS"] == "1"), arguments: plantedFaults.indices)
    func aPlantedHTTP2FaultIsCaughtByTheCasesThatCoverIt(_ index: Int) async throws {
        let (fault, caught, unaffected) = Self.plantedFaults[index]
        let server = try await Self.linechat(fault: fault)
        defer { kill(server.process.processIdentifier, SIGKILL); server.process.waitUntilExit() }
        let run = try await Self.verdicts(of: caught + unaffected, port: server.port)
        #expect(run.ran == Set(caught + unaffected), "\(fault): ran \(run.ran.sorted())")
        #expect(run.failed == Set(caught), "\(fault): failed \(run.failed.sorted())")
    }

    /// Every fault `linechat faults` lists for the HTTP/2 server is one of those above.
    @Test func everyHTTP2FaultIsPlanted() async throws {
        let faults = try await ProbeProcess.linechatFaults().filter { $0.commands == "serve --http2" }.map(\.fault)
        #expect(faults.count == 6)
        #expect(Set(faults) == Set(Self.plantedFaults.map(\.fault)))
    }

    @Test func specArgumentsSelectSectionsAndCasesAsH2specDoes() async throws {
        let output = try await ProbeProcess.run(["h2spec", "--dryrun", "-p", "1", "--suite", Self.suite, "http2/6.5", "hpack/2.3.3/1"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("Hypertext Transfer Protocol Version 2 (HTTP/2)\n  6. Frame Definitions\n    6.5. SETTINGS\n      1: Sends a SETTINGS frame with ACK flag and payload\n"), "\(output.stdout)")
        #expect(output.stdout.contains("      6.5.2. Defined SETTINGS Parameters\n        1: SETTINGS_ENABLE_PUSH (0x2): Sends the value other than 0 or 1\n"))
        #expect(output.stdout.contains("6.5.3. Settings Synchronization"))
        #expect(output.stdout.contains("      1: Sends a indexed header field representation with invalid index\n"))
        #expect(!output.stdout.contains("Sends a literal header field representation with invalid index"), "hpack/2.3.3/2 is not selected")
        #expect(!output.stdout.contains("6.7. PING") && !output.stdout.contains("Generic tests"), "\(output.stdout)")
    }

    @Test func theStrictCaseRunsOnlyWithS() async throws {
        let plain = try await ProbeProcess.run(["h2spec", "--dryrun", "-p", "1", "--suite", Self.suite, "http2/5.4.1"])
        let strict = try await ProbeProcess.run(["h2spec", "--dryrun", "-S", "-p", "1", "--suite", Self.suite, "http2/5.4.1"])
        #expect(plain.stdout.contains("1: Sends an invalid PING frame for connection close"))
        #expect(!plain.stdout.contains("2: Sends an invalid PING frame to receive GOAWAY frame"))
        #expect(strict.stdout.contains("2: Sends an invalid PING frame to receive GOAWAY frame"), "\(strict.stdout)")
    }

    @Test func aSpecThatIsNotOneIsRefusedSayingWhy() async throws {
        let output = try await ProbeProcess.run(["h2spec", "-p", "1", "--suite", Self.suite, "http2//1"])
        #expect(output.status == 2, "\(output.stdout)")
        #expect(output.stderr.contains("'http2//1' is not a spec, a section or a case"), "\(output.stderr)")
    }
}

/// Reads a JUnit report: its elements counted, the testsuites' packages, and each testcase's
/// package, title (h2spec's `classname`) and whether it failed.
private final class JUnitReading: NSObject, XMLParserDelegate {
    var elements: [String: Int] = [:]
    var packages: Set<String> = []
    var cases: [(package: String, title: String, failed: Bool)] = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        elements[name, default: 0] += 1
        if name == "testsuite", let package = attributes["package"] { packages.insert(package) }
        if name == "testcase" { cases.append((attributes["package"] ?? "", attributes["classname"] ?? "", false)) }
        if name == "failure", !cases.isEmpty { cases[cases.count - 1].failed = true }
    }
}
