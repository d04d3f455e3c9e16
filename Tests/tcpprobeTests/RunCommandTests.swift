import Foundation
import Testing

/// `tcpprobe run`: exit codes, selection by tag, and plain output when not on a terminal.
@Suite struct RunCommandTests {
    private func scenarios(_ files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-run-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    @Test func exitCodesSayPassFailAndInvalid() async throws {
        let directory = try scenarios([
            "pass.scn": "title \"refused on a free port\"\nvar port = free-port\nconnect 127.0.0.1:{port} expect refused\n",
            "fail.scn": "var port = free-port\nconnect 127.0.0.1:{port}\n",
            "invalid.scn": "sned \"x\"\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let pass = try await ProbeProcess.run(["run", "pass.scn"], in: directory)
        #expect(pass.status == 0)
        #expect(pass.stdout.hasPrefix("✔ refused on a free port (pass.scn) "))
        #expect(pass.stdout.contains("1 passed, 0 failed"))

        let fail = try await ProbeProcess.run(["run", "pass.scn", "fail.scn"], in: directory)
        #expect(fail.status == 1)
        #expect(fail.stdout.contains("✘ fail (fail.scn)"))
        #expect(fail.stdout.contains("at fail.scn:2: connect 127.0.0.1:{port}"))
        #expect(fail.stdout.contains("1 passed, 1 failed"))

        let invalid = try await ProbeProcess.run(["run", "pass.scn", "invalid.scn"], in: directory)
        #expect(invalid.status == 2)
        #expect(invalid.stderr.contains("invalid.scn:1:1: error: expected a statement, found 'sned'"))
        #expect(invalid.stderr.hasSuffix("\n") && !invalid.stderr.hasSuffix("\n\n"), "the diagnostics end with one newline: \(invalid.stderr.debugDescription)")
        #expect(invalid.stdout.isEmpty, "nothing runs when a file is invalid")

        let usage = try await ProbeProcess.run(["run", "--var", "novalue", "pass.scn"], in: directory)
        #expect(usage.status == 2)
        let snaplen = try await ProbeProcess.run(["run", "--snaplen", "100", "pass.scn"], in: directory)
        #expect(snaplen.status == 2)
        #expect(snaplen.stderr.contains("--snaplen must be at least 160"), "\(snaplen.stderr)")

        // A report that cannot be written names its path and why (exit 3); a new folder is made.
        let unwritable = try await ProbeProcess.run(["run", "--report", "junit=pass.scn/junit.xml", "pass.scn"], in: directory)
        #expect(unwritable.status == 3)
        #expect(unwritable.stderr.contains("error: cannot write the report to pass.scn/junit.xml: Not a directory"), "\(unwritable.stderr)")
        let nested = try await ProbeProcess.run(["run", "--report", "junit=out/a/junit.xml", "pass.scn"], in: directory)
        #expect(nested.status == 0 && FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/a/junit.xml").path))
    }

    @Test func tagsSelectAndSkip() async throws {
        let directory = try scenarios([
            "a.scn": "tags smoke framing\nsleep 1ms\n",
            "b.scn": "tags slow\nsleep 1ms\n",
            "c.scn": "sleep 1ms\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let smoke = try await ProbeProcess.run(["run", "--tag", "smoke", "."], in: directory)
        #expect(smoke.status == 0)
        #expect(smoke.stdout.contains("(a.scn)") && !smoke.stdout.contains("(b.scn)") && !smoke.stdout.contains("(c.scn)"))
        let skip = try await ProbeProcess.run(["run", "--skip-tag", "slow", "--report", "tap=r.tap", "."], in: directory)
        #expect(skip.stdout.contains("✔ a (a.scn)") && skip.stdout.contains("✔ c (c.scn)"))
        #expect(skip.stdout.contains("- b (b.scn) skipped: --skip-tag slow"), "a skipped scenario is reported as skipped")
        #expect(skip.stdout.contains("2 passed, 0 failed, 1 skipped"))
        #expect(try String(contentsOf: directory.appendingPathComponent("r.tap"), encoding: .utf8).contains("ok 1 - b (b.scn) # SKIP --skip-tag slow"))
        let none = try await ProbeProcess.run(["run", "--tag", "nope", "."], in: directory)
        #expect(none.status == 2 && none.stderr == "error: no scenario to run (3 scenarios found, none selected by --tag/--skip-tag)\n", "\(none.stderr)")
        // A folder without scenarios says so, not that the tags chose none.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let empty = try await ProbeProcess.run(["run", "empty"], in: directory)
        #expect(empty.status == 2 && empty.stderr == "error: no scenario to run: no *.scn file in empty\n", "\(empty.stderr)")
    }

    @Test func colourOnlyWhenAskedOrOnATerminal() async throws {
        let directory = try scenarios(["a.scn": "sleep 1ms\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let piped = try await ProbeProcess.run(["run", "a.scn"], in: directory)
        #expect(!piped.stdout.contains("\u{1B}["))
        let forced = try await ProbeProcess.run(["run", "--color", "always", "a.scn"], in: directory)
        #expect(forced.stdout.contains("\u{1B}[32m✔"))
    }

    @Test func varOverridesTheDefault() async throws {
        let directory = try scenarios(["v.scn": "var d = 5s\nset deadline 100ms\nsleep {d}\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let overridden = try await ProbeProcess.run(["run", "--var", "d=1ms", "v.scn"], in: directory)
        #expect(overridden.status == 0, "\(overridden.stdout)")
        let bad = try await ProbeProcess.run(["run", "--var", "d=soon", "v.scn"], in: directory)
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("'{d}' gives 'soon', which is not a duration"))
    }
}
