import ProbeReport
import ProbeResults
import ProbeScript

/// A fixed run — passing, failing, erroring, skipped, swept and parallel scenarios — with
/// fixed times, so every report format can be compared with a golden file.
enum SampleRun {
    static var report: RunReport {
        RunReport(results: [passed, failed, errored, skipped, swept], startedAt: "2026-01-02T03:04:05Z", duration: .milliseconds(4321))
    }

    static func at(_ file: String, _ line: Int) -> SourceLocation { SourceLocation(file: file, line: line, column: 1) }

    static let passed = ScenarioResult(
        path: "Scenarios/crlf.scn", title: "replies end in CRLF", outcome: .passed, duration: .milliseconds(150),
        log: [LogEntry(offset: .milliseconds(2), location: at("Scenarios/crlf.scn", 5), message: "connection #1: sent 10 bytes \"iam:Luke\\r\\n\""),
              LogEntry(offset: .milliseconds(3), location: at("Scenarios/crlf.scn", 6), message: "connection #1: got line \"Luke has joined\" after 1ms")],
        notes: [])

    static var failed: ScenarioResult {
        var failure = StepFailure(at: at("Scenarios/ping.scn", 7), step: "expect line \"pong\"",
                                  reason: SampleReason(description: "expected line: \"pong\"\nreceived line: \"pang\"\n                 ^ first difference at byte 1"),
                                  connection: "connection #1", waited: .milliseconds(3))
        failure.recentBytes = Array("pang\r\n".utf8)
        failure.totalReceived = 6
        var result = ScenarioResult(path: "Scenarios/ping.scn", title: "ping <pong> & \"friends\"", outcome: .failed(failure), duration: .milliseconds(40),
                                    log: [LogEntry(offset: .milliseconds(1), location: at("Scenarios/ping.scn", 6), message: "connection #1: sent 6 bytes \"ping\\r\\n\"")],
                                    notes: [])
        result.parallel = [ParallelSummary(location: at("Scenarios/ping.scn", 3), copies: 4, passed: 3,
                                           latencies: [.milliseconds(1), .milliseconds(2), .milliseconds(3), .milliseconds(9)])]
        return result
    }

    static let errored = ScenarioResult(
        path: "Scenarios/spawn.scn", title: "server starts", duration: .milliseconds(12),
        failure: StepFailure(at: at("Scenarios/spawn.scn", 2), step: "spawn server \"nope\"", reason: SampleReason(description: "cannot find 'nope'", kind: .environment)))

    static let skipped = ScenarioResult(path: "Scenarios/slow.scn", title: "slow one", outcome: .skipped("tag slow"), duration: .zero, log: [], notes: [])

    static var swept: ScenarioResult {
        var result = ScenarioResult(path: "Scenarios/sweep.scn", title: "sweep", outcome: .passed, duration: .milliseconds(300), log: [],
                                    notes: ["split sweep over a 4-byte message: 3 of 3 offsets pass"])
        result.sweep = SweepReport(plan: SplitSweep(messageLength: 4, limit: 256), outcomes: [(1, true, .zero), (2, true, .zero), (3, true, .zero)])
        return result
    }
}

extension ScenarioResult {
    init(path: String, title: String, duration: Duration, failure: StepFailure) {
        self.init(path: path, title: title, outcome: .failed(failure), duration: duration, log: [], notes: [])
    }
}
