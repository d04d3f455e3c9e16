import Foundation
import Testing

/// Variables from CI: `--vars-file` and `TCPPROBE_VAR_NAME` beside `--var`, in that order of
/// precedence, known to `check` as well; and the values of `…_SECRET` and `…_TOKEN` variables
/// from the environment kept out of every report.
@Suite struct VariableSourcesTests {
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-vars-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func file(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func precedenceIsVarThenEnvironmentThenFile() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let vars = try file("ci.vars", "# from the CI's settings\na=file\nb=file\r\n\nc=file\n")
        let scenario = try file("echo.scn", """
            spawn echo "echo {a} {b} {c}"
            expect stdout echo line "file env cli"
            """)
        let output = try await ProbeProcess.run(["run", "--vars-file", vars, "--var", "c=cli", scenario],
                                                environment: ["TCPPROBE_VAR_b": "env", "TCPPROBE_VAR_c": "env"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let known = try await ProbeProcess.run(["check", scenario], environment: ["TCPPROBE_VAR_a": "x", "TCPPROBE_VAR_b": "x", "TCPPROBE_VAR_c": "x"])
        #expect(known.status == 0, "\(known.stderr)")
        let unknown = try await ProbeProcess.run(["check", scenario])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown variable 'a'"), "\(unknown.stderr)")
        let bad = try await ProbeProcess.run(["check", "--vars-file", try file("bad.vars", "a=1\nnot a pair\n"), scenario])
        #expect(bad.status == 2 && bad.stderr.contains("bad.vars:2: expected NAME=VALUE, got 'not a pair'"), "\(bad.stderr)")
    }

    /// A vars file may be a pipe, as a secret store's output is (`--vars-file <(vault read …)`):
    /// read once, its variables are there; a file that cannot be read says why.
    @Test func aVarsFileMayBeAPipe() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = try file("echo.scn", """
            spawn echo "echo {a}"
            expect stdout echo line "from a pipe"
            """)
        for command in ["check", "run"] {
            let output = try await ProbeProcess.run(["-c", #""$0" "$1" --vars-file <(printf 'a=from a pipe\n') "$2""#, ProbeProcess.binary.path, command, scenario],
                                                    executable: URL(fileURLWithPath: "/bin/bash"))
            #expect(output.status == 0, "\(command): \(output.stdout)\(output.stderr)")
        }
        let absent = directory.appendingPathComponent("absent.vars").path
        let missing = try await ProbeProcess.run(["run", "--vars-file", absent, scenario])
        #expect(missing.status == 2 && missing.stderr.contains("--vars-file: \(absent): No such file or directory"), "\(missing.stderr)")
    }

    @Test func secretsFromTheEnvironmentStayOutOfReports() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = try file("secret.scn", """
            spawn echo "echo token {api_TOKEN} and {db_secret}"
            expect stdout echo line "something else"
            """)
        let json = directory.appendingPathComponent("report.json").path
        let junit = directory.appendingPathComponent("report.xml").path
        let output = try await ProbeProcess.run(["run", "-v", "--report", "json=\(json)", "--report", "junit=\(junit)", scenario],
                                                environment: ["TCPPROBE_VAR_api_TOKEN": "hunter2", "TCPPROBE_VAR_db_secret": "s3cr3t-value"])
        #expect(output.status == 1)
        #expect(output.stdout.contains("token *** and ***"), "\(output.stdout)")
        for text in [output.stdout + output.stderr, try String(contentsOfFile: json, encoding: .utf8), try String(contentsOfFile: junit, encoding: .utf8)] {
            #expect(!text.contains("hunter2") && !text.contains("s3cr3t-value"), "\(text)")
        }
    }
}
