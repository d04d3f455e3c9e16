import Foundation
import Testing
import TestSupport

/// The progress line `tcpprobe run` draws when stderr is a terminal: ten times a second at most,
/// however fast the steps go, showing the step the run waits in, never inside a result's line.
@Suite(.script) struct ProgressLineTests {
    /// What erases the line before each drawing of it.
    private static let erase = "\r\u{1B}[2K"

    private func onTerminal(_ files: [String: String], _ arguments: [String]) async throws -> (status: Int32, screen: String, seconds: Double) {
        let clock = ContinuousClock()
        let started = clock.now
        let (status, screen) = try await ProbeProcess.inDirectory(holding: files) { try await ProbeProcess.runOnTerminal(["run"] + arguments, in: $0) }
        let elapsed = clock.now - started
        return (status, screen, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    @Test func twentyThousandStepsDrawTheLineTenTimesASecondAtMost() async throws {
        let run = try await onTerminal(["steps.scn": "set deadline 60s\nrepeat 20000 {\n  sleep 0ms\n}\n"], ["steps.scn"])
        #expect(run.status == 0, "\(run.screen.suffix(500))")
        let draws = run.screen.components(separatedBy: Self.erase + "[").count - 1
        // Ten a second from the ticker, one when the scenario ends, a few for a slow start.
        let most = Int(run.seconds * 10) + 3
        #expect(draws >= 1 && draws <= most, "\(draws) drawings in \(run.seconds) s (at most \(most)); \(run.screen.utf8.count) bytes on the terminal")
        #expect(run.screen.contains(Self.erase + "[1/1] "), "the line counts the scenario done")
    }

    @Test func theLineShowsTheStepTheRunWaitsInAndItsTimeGoingOn() async throws {
        let run = try await onTerminal(["wait.scn": "repeat 300 {\n  sleep 0ms\n}\nsleep 1500ms\n"], ["wait.scn"])
        #expect(run.status == 0, "\(run.screen.suffix(500))")
        let waiting = run.screen.components(separatedBy: Self.erase).filter { $0.hasSuffix("s wait.scn: sleep 1500ms") }
        #expect(waiting.count >= 5, "drawn again while the step waits: \(waiting)")
        #expect(waiting.contains { $0.hasPrefix("[0/1] 1.") }, "the time goes on past a second: \(waiting)")
    }

    @Test func resultsPrintOnALineOfTheirOwn() async throws {
        let files = (1...6).reduce(into: [String: String]()) { files, index in
            files["s\(index).scn"] = "repeat 2000 {\n  sleep 0ms\n}\nsleep 150ms\n"
        }
        let run = try await onTerminal(files, ["--jobs", "3", "--color", "never", "."])
        #expect(run.status == 0, "\(run.screen.suffix(500))")
        let results = run.screen.components(separatedBy: "✔ ")
        #expect(results.count == 7, "six results: \(run.screen.suffix(800))")
        for before in results.dropLast() {
            #expect(before.hasSuffix(Self.erase), "a result starts where the line was erased, not after it: \(before.suffix(120).debugDescription)")
        }
    }
}
