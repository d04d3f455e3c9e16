import Foundation
import ProbeResults
import Testing

/// Each family's failures, pinned: every `x.scn` in Tests/Fixtures/failures fails, and its
/// failure (kind, line and column, step, the reason's type, message) is exactly `x.err`, ports and pids written as
/// PORT and PID. A reworded message changes its golden file, not a test's `contains`. Run with
/// TCPPROBE_WRITE_GOLDENS=1 to write the files anew, then read their diff.
@Suite struct FailureGoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/failures")
    static let cases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".scn") }.sorted()

    /// The families the goldens cover, by the prefix of their files' names.
    @Test func everyFamilyHasGoldens() {
        for family in ["connection", "framing", "rules", "tls", "websocket", "subjects", "proxy", "network", "wire", "parallel", "http2"] {
            #expect(Self.cases.contains { $0.hasPrefix(family + "-") }, "no failure golden for \(family)")
        }
    }

    @Test(arguments: cases)
    func theFailureIsTheGolden(_ name: String) async throws {
        let path = Self.directory.appendingPathComponent(name).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let rendered: String
        do {
            let result = try await ScenarioHarness.run(text, path: name)
            rendered = Self.render(result.failure)
        } catch HarnessError.invalid(let diagnostics) {
            rendered = "not loaded:\n" + diagnostics + "\n"
        }
        let normalized = Self.normalize(rendered)
        let golden = Self.directory.appendingPathComponent(name.replacingOccurrences(of: ".scn", with: ".err"))
        if ProcessInfo.processInfo.environment["TCPPROBE_WRITE_GOLDENS"] == "1" {
            try normalized.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(normalized == expected)
        #expect(!normalized.hasPrefix("passed"), "a failure fixture must fail")
    }

    private static func render(_ failure: StepFailure?) -> String {
        guard let failure else { return "passed\n" }
        return "\(failure.location.line):\(failure.location.column): \(failure.kind) at `\(failure.step)`"
            + (failure.connection.map { " on \($0)" } ?? "") + " (\(type(of: failure.reason)))\n" + failure.message + "\n"
    }

    /// Ports and pids differ from run to run.
    private static func normalize(_ text: String) -> String {
        text.replacing(#/127\.0\.0\.1:\d+/#, with: "127.0.0.1:PORT")
            .replacing(#/port \d+/#, with: "port PORT")
            .replacing(#/pid \d+/#, with: "pid PID")
    }
}
