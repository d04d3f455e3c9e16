import Foundation
import Testing

/// `tcpprobe check` on golden fixtures: each `x.scn` in Fixtures/diagnostics has the exact
/// stderr in `x.err`; every one exits 2.
@Suite struct CheckCommandTests {
    static let directory = ProbeProcess.fixtures.appendingPathComponent("diagnostics")
    static let cases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".scn") }.sorted()

    @Test func thereIsAFixtureForEachKindOfError() {
        let kinds = ["misspelt-keyword", "misspelt-option", "unknown-variable", "bad-duration", "bad-size", "bad-regex",
                     "unterminated-string", "bad-escape", "include-cycle", "missing-include", "bad-hex", "unclosed-block",
                     "unexpected-token", "bad-address"]
        for kind in kinds { #expect(Self.cases.contains(kind + ".scn"), "missing fixture \(kind).scn") }
    }

    @Test(arguments: cases)
    func diagnosticsMatchTheGoldenFile(_ name: String) async throws {
        let expected = try String(contentsOf: Self.directory.appendingPathComponent(name.replacingOccurrences(of: ".scn", with: ".err")), encoding: .utf8)
        let output = try await ProbeProcess.run(["check", name], in: Self.directory)
        #expect(output.status == 2)
        #expect(output.stderr == expected)
        let firstLine = output.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.contains(try Regex(#"^[\w.-]+\.(scn|inc):\d+:\d+: error: "#)), "every error names file:line:column")
    }

    @Test func validFilesPassWithExitZero() async throws {
        let output = try await ProbeProcess.run(["check", "--var", "host=h", "--var", "port=1", "--var", "transport=nio",
                                           ProbeProcess.fixtures.appendingPathComponent("contract").path])
        #expect(output.status == 0, "\(output.stderr)")
        // common.scn is included by header.scn, so it is a fragment, not a scenario of its own.
        #expect(output.stdout == "15 scenarios OK\n")
    }

    /// A variable declared twice (an imported scenario's `var port` after an included one) is a
    /// warning: the scenario runs, with the second value from there on; a `var` run again in a
    /// loop is one declaration, not two.
    @Test func aVariableDeclaredTwiceIsAWarning() async throws {
        let output = try await ProbeProcess.run(["check", "main.scn", "loop.scn"], with: [
            "common.inc": "var port = free-port\n",
            "main.scn": "include \"common.inc\"\nvar port = \"22199\"\nsleep 1ms\n",
            "loop.scn": "repeat 3 {\n  var n = \"{i}\"\n}\n",
        ])
        #expect(output.status == 0)
        #expect(output.stdout == "2 scenarios OK\n")
        #expect(output.stderr == """
            main.scn:2:1: warning: 'port' is declared again: from here on this value replaces the one declared at common.inc:1:1
              hint: remove one of the two, or give the second another name
              var port = "22199"
              ^~~~~~~~~~~~~~~~~~

            """)
    }

    @Test func allFilesAreReportedNotJustTheFirst() async throws {
        let output = try await ProbeProcess.run(["check", "bad-size.scn", "bad-duration.scn"], in: Self.directory)
        #expect(output.status == 2)
        #expect(output.stderr.contains("bad-size.scn:1:14"))
        #expect(output.stderr.contains("bad-duration.scn:3:24"))
        #expect(output.stderr.hasSuffix("6 errors in 2 file(s)\n"))
    }

    @Test func aScenarioPipedInIsReadWhole() async throws {
        // /dev/stdin is a pipe here, whose size reads 0: the file is read to its end, not by its size.
        let scenario = (0..<500).map { "send line \"line \($0) of a scenario that is longer than one pipe read\"" }.joined(separator: "\n")
        #expect(scenario.utf8.count > 32 * 1024)
        let output = try await ProbeProcess.run(["check", "--var", "port=1", "/dev/stdin"], input: "connect 127.0.0.1:{port}\n" + scenario + "\n")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "1 scenario OK\n")
        let broken = try await ProbeProcess.run(["check", "/dev/stdin"], input: scenario + "\nsend line {nope}\n")
        #expect(broken.stderr.contains("/dev/stdin:501:"), "an error past the first 4 KiB is found: \(broken.stderr)")
    }

    @Test func aPipedScenarioIncludesFromTheCurrentDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-\(UUID())")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("lib"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("var pause = \"1ms\"\n".utf8).write(to: directory.appendingPathComponent("lib/common.inc"))
        let output = try await ProbeProcess.run(["check", "/dev/stdin"], in: directory, input: "include \"lib/common.inc\"\nsleep {pause}\n")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "1 scenario OK\n")
    }

    @Test func aMissingPathIsAUsageError() async throws {
        let output = try await ProbeProcess.run(["check", "no/such/file.scn"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("no such file or directory: no/such/file.scn"))
    }
}
