import Foundation
import NIOPosix
import ProbeResults
import ProbeRunner
import ProbeScript
import Testing

/// Runs scenario text against peers and digs into the result.
enum ScenarioHarness {
    /// Parses `text` (as the file `path`) and runs it with `variables` given as --var.
    static func run(_ text: String, variables: [String: String] = [:], path: String = "test.scn", seed: UInt64 = 42,
                    part: LoadPart? = nil) async throws -> ScenarioResult {
        let loaded = ScenarioLoader.load(path, given: variables) { file in
            if file == path { return text }
            return try String(contentsOfFile: file, encoding: .utf8)
        }
        guard let scenario = loaded.scenario else {
            throw HarnessError.invalid(loaded.diagnostics.map(\.description).joined(separator: "\n"))
        }
        var options = RunOptions(variables: variables, seed: seed)
        options.part = part
        return await runOnOwnLoop(scenario, options: options)
    }

    /// Runs `scenario` on an event loop of its own, so a test beside it that keeps a shared loop
    /// busy (judging a 256 MiB capture, say) cannot make its timers fire late.
    static func runOnOwnLoop(_ scenario: Scenario, options: RunOptions) async -> ScenarioResult {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let result = await ScenarioRunner(options: options, group: group).run(scenario)
        try? await group.shutdownGracefully()
        return result
    }

    /// Runs `text` with the capture on, its pcaps in `directory` kept as `keep` says, and with
    /// `recordWire` its segments, records and frames kept for the HTML ladder.
    static func runCapturing(_ text: String, directory: String = FileManager.default.temporaryDirectory.path, keep: CaptureSettings.Keep = .never,
                             recordWire: Bool = false) async throws -> ScenarioResult {
        let loaded = ScenarioLoader.load("captured.scn", predefinedVariables: []) { _ in text }
        let scenario = try #require(loaded.scenario, "\(loaded.diagnostics)")
        var options = RunOptions(capture: CaptureSettings(directory: directory, keep: keep))
        options.recordWire = recordWire
        return await runOnOwnLoop(scenario, options: options)
    }

    /// Runs against `peer`, whose port is `{port}`.
    static func run(_ text: String, against peer: TestPeer, variables: [String: String] = [:], part: LoadPart? = nil) async throws -> ScenarioResult {
        try await run(text, variables: variables.merging(["port": String(peer.port)]) { a, _ in a }, part: part)
    }
}

enum HarnessError: Error { case invalid(String) }

extension ScenarioResult {
    /// Records an issue when the scenario did not pass, with the failure message.
    func expectPassed(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let steps = log.suffix(30).map(\.message).joined(separator: "\n")
        #expect(failure == nil, "failed at line \(failure?.location.line ?? 0): \(failure?.message ?? "")\nstep log:\n\(steps)", sourceLocation: sourceLocation)
    }

    /// The failure at `line`, its message holding every one of `texts`; an issue when the scenario passed.
    func expectFailure(line: Int, containing texts: String..., sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        guard let failure else {
            Issue.record("expected a failure at line \(line) containing \(texts), but the scenario passed", sourceLocation: sourceLocation)
            return
        }
        #expect(failure.location.line == line, "failed at line \(failure.location.line) instead: \(failure.message)", sourceLocation: sourceLocation)
        for text in texts {
            #expect(failure.message.contains(text), "no \"\(text)\" in the message: \(failure.message)", sourceLocation: sourceLocation)
        }
    }
}
