import Foundation
import Testing
import TestSupport

/// `run --part K/N` then `merge`: the parts of one load, each its share of the copies, judged
/// once as the whole load, and parts that do not make one load refused with their names.
@Suite struct MergeCommandTests {
    /// Six copies, each its own listener and connection: an expect whose latency is recorded.
    static func scenario(asserts: String) -> String {
        """
        set timeout 2s
        var part = "1"
        parallel 6 {
          listen l 127.0.0.1:0
          connect c 127.0.0.1:{l.port}
          accept s on l
          c: send line "copy {copy} of part {part}"
          s: expect line /copy [0-5] of part [1-3]/
        }
        \(asserts)
        """
    }

    static let passing = scenario(asserts: "assert copies passed = 100%\nassert latency p99 < 2s\nassert latency max < 2s")

    /// Runs the parts of `text` (or `texts`, one for each part) and merges their reports.
    private func runParts(_ texts: [String], merge extra: [String] = [], in directory: URL) async throws -> ProbeProcess.Output {
        for (index, text) in texts.enumerated() {
            let name = "load-\(index + 1).scn"
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
            let part = try await ProbeProcess.run(["run", name, "--part", "\(index + 1)/\(texts.count)", "--report", "json=part-\(index + 1).json"], in: directory)
            #expect(part.status == 0, "\(part.stdout)\(part.stderr)")
        }
        let files = (1...texts.count).map { "part-\($0).json" } + extra
        return try await ProbeProcess.run(["merge"] + files + ["--report", "json=merged.json", "-v"], in: directory)
    }

    @Test func threePartsMergeIntoOneLoadJudgedOnce() async throws {
        try await ProbeProcess.inDirectory(holding: [:]) { directory in
            let merged = try await runParts(Array(repeating: Self.passing, count: 3), in: directory)
            #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
            #expect(merged.stdout.contains("assert copies passed = 100%: copies passed: 6 of 6 (100%), = 100%"))
            #expect(merged.stdout.contains("assert latency p99 < 2s: latency p99: "))
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("merged.json"))) as? [String: Any]
            let scenario = try #require((json?["scenarios"] as? [[String: Any]])?.first)
            let block = try #require((scenario["parallel"] as? [[String: Any]])?.first)
            #expect(block["copies"] as? Int == 6 && block["passed"] as? Int == 6 && block["expects"] as? Int == 6)
            // Each part ran its share: two copies each, numbered as in the whole load.
            let notes = try #require(scenario["notes"] as? [String])
            for (part, copies) in [("1/3", "0 to 1"), ("2/3", "2 to 3"), ("3/3", "4 to 5")] {
                #expect(notes.contains { $0.hasPrefix("part \(part): ") && $0.contains("(part \(part): copies \(copies) of 6)") }, "\(notes)")
            }
        }
    }

    @Test func anAssertOnTheWholeLoadFailsTheMerge() async throws {
        try await ProbeProcess.inDirectory(holding: [:]) { directory in
            let failing = Self.scenario(asserts: "assert copies failed >= 1")
            let merged = try await runParts(Array(repeating: failing, count: 2), in: directory)
            #expect(merged.status == 1, "\(merged.stdout)\(merged.stderr)")
            #expect(merged.stdout.contains("copies failed: 0 of 6 (0%) in the parallel block at load-1.scn:3, expected >= 1"))
        }
    }

    @Test func partsThatAreNotOneLoadAreUsageErrors() async throws {
        try await ProbeProcess.inDirectory(holding: [:]) { directory in
            // A part of another scenario: the digests differ.
            let other = Self.scenario(asserts: "assert copies passed >= 50%")
            let mixed = try await runParts([Self.passing, other], in: directory)
            #expect(mixed.status == 2)
            #expect(mixed.stderr.contains("part-1.json and part-2.json are parts of different loads: a scenario's text differs (its digest)"))
            let twice = try await ProbeProcess.run(["merge", "part-1.json", "part-1.json"], in: directory)
            #expect(twice.status == 2 && twice.stderr.contains("part 1/2 is given twice: part-1.json and part-1.json"))
            let missing = try await ProbeProcess.run(["merge", "part-2.json"], in: directory)
            #expect(missing.status == 2 && missing.stderr.contains("part 1/2 missing: merge takes all 2 parts"))
            // A run's report that was no part.
            let whole = try await ProbeProcess.run(["run", "load-1.scn", "--report", "json=whole.json"], in: directory)
            #expect(whole.status == 0, "\(whole.stdout)")
            let notAPart = try await ProbeProcess.run(["merge", "whole.json"], in: directory)
            #expect(notAPart.status == 2 && notAPart.stderr.contains("whole.json: not the report of a part (run with --part K/N)"))
        }
    }

    /// A file that cannot be read or is no report is named with what is wrong, in a sentence:
    /// the system's reason, or the field of the report that is missing or of the wrong kind.
    @Test func unreadablePartsAreNamedWithWhatIsWrong() async throws {
        let files = ["not-json.json": "hello", "no-tool.json": "{}"]
        try await ProbeProcess.inDirectory(holding: files) { directory in
            for (file, said) in [("absent.json", "error: absent.json: No such file or directory"),
                                 ("not-json.json", "error: not-json.json: not a tcpprobe JSON report: not valid JSON"),
                                 ("no-tool.json", #"error: no-tool.json: not a tcpprobe JSON report: no "tool" field"#)] {
                let merged = try await ProbeProcess.run(["merge", file], in: directory)
                #expect(merged.status == 2 && merged.stderr == said + "\n", "\(merged.stderr)")
            }
            // A field of the wrong kind in a part's own report is named by its path.
            _ = try await runParts([Self.passing], in: directory)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("part-1.json"))) as? [String: Any])
            var scenarios = try #require(json["scenarios"] as? [[String: Any]])
            var blocks = try #require(scenarios[0]["parallel"] as? [[String: Any]])
            blocks[0]["copies"] = "six"
            scenarios[0]["parallel"] = blocks
            for (file, changed, said) in [("copies-a-word.json", json.merging(["scenarios": scenarios]) { $1 }, #""scenarios[0].parallel[0].copies" is not a number"#),
                                          ("scenarios-a-number.json", json.merging(["scenarios": 3]) { $1 }, #""scenarios" is not an array"#)] {
                try JSONSerialization.data(withJSONObject: changed).write(to: directory.appendingPathComponent(file))
                let merged = try await ProbeProcess.run(["merge", file], in: directory)
                #expect(merged.status == 2 && merged.stderr == "error: \(file): not a tcpprobe JSON report: \(said)\n", "\(merged.stderr)")
            }
        }
    }

    @Test func aPartKnowsItsPlaceAndAutoReadsAnIndexedJob() async throws {
        // {part} and {parts}, as a subject prints them; `want` is what it must print.
        let place = "var part = \"1\"\nvar parts = \"1\"\nspawn s \"echo part {part} of {parts}\"\nexpect stdout s line \"{want}\"\n"
        try await ProbeProcess.inDirectory(holding: ["place.scn": place]) { directory in
            func run(_ arguments: [String], want: String, environment: [String: String] = [:]) async throws -> ProbeProcess.Output {
                try await ProbeProcess.run(["run", "place.scn", "--var", "want=\(want)"] + arguments, in: directory, environment: environment)
            }
            let alone = try await run([], want: "part 1 of 1")
            #expect(alone.status == 0, "\(alone.stdout)\(alone.stderr)")
            let second = try await run(["--part", "2/3"], want: "part 2 of 3")
            #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
            let auto = try await run(["--part", "auto"], want: "part 4 of 4", environment: ["JOB_COMPLETION_INDEX": "3", "TCPPROBE_PARTS": "4"])
            #expect(auto.status == 0, "\(auto.stdout)\(auto.stderr)")
            let outOfRange = try await run(["--part", "auto"], want: "", environment: ["JOB_COMPLETION_INDEX": "4", "TCPPROBE_PARTS": "4"])
            #expect(outOfRange.status == 2 && outOfRange.stderr.contains("--part auto: JOB_COMPLETION_INDEX is '4', not 0 to 3, as TCPPROBE_PARTS is 4"))
            let notAMoment = try await run(["--start-at", "tomorrow"], want: "part 1 of 1")
            #expect(notAMoment.status == 2 && notAMoment.stderr.contains("--start-at takes a moment in RFC 3339"))
            let past = try await run(["--start-at", "2026-01-01T00:00:00Z"], want: "part 1 of 1")
            #expect(past.status == 0 && past.stderr.contains("--start-at: this part started ") && past.stderr.contains(" late"), "\(past.stderr)")
        }
    }

    @Test(.jsonschema) func aPartsReportFollowsTheSchema() async throws {
        try await ProbeProcess.inDirectory(holding: ["load.scn": Self.passing]) { directory in
            let part = try await ProbeProcess.run(["run", "load.scn", "--part", "2/3", "--report", "json=part.json"], in: directory)
            #expect(part.status == 0)
            let schema = ProbeProcess.fixtures.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/report-schema.json")
            let script = "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))"
            let validated = try await ProbeProcess.run(["python3", "-c", script, "part.json", schema.path], in: directory, executable: URL(fileURLWithPath: "/usr/bin/env"))
            #expect(validated.status == 0, "\(validated.stderr)")
            let text = try String(contentsOf: directory.appendingPathComponent("part.json"), encoding: .utf8)
            #expect(text.contains("\"latencyHistogram\" : \"HISTF") && text.contains("\"part\" : \"2\\/3\""), "\(text)")
        }
    }
}
