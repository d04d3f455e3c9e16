import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import NIOConcurrencyHelpers
import ProbeCapture
import ProbeHost
import ProbeReport
import ProbeResults
import ProbeRunner

/// Ctrl-C and SIGTERM: stop every spawned subject, flush every capture and write the reports
/// (both marked interrupted), then exit 130 or 143 — within about a second.
enum SignalHandling {
    private nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []
    /// The reports to write if interrupted, and the results so far.
    private static let pending = NIOLockedValueBox<(targets: [ReportWriter.Target], startedAt: String, started: ContinuousClock.Instant, results: [ScenarioResult])>(
        ([], "", ContinuousClock.now, []))

    static func install() {
        for (number, code) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { interrupted(exitCode: code) }
            source.resume()
            sources.append(source)
        }
    }

    /// Remembers what to write if the run is interrupted.
    static func expectReports(_ targets: [ReportWriter.Target], startedAt: String) {
        pending.withLockedValue { $0 = (targets, startedAt, ContinuousClock.now, []) }
    }

    static func finished(_ result: ScenarioResult) {
        pending.withLockedValue { $0.results.append(result) }
    }

    private static func interrupted(exitCode: Int32) {
        Terminal.printError("\ninterrupted: stopping subjects, flushing captures and reports")
        SubjectRegistry.shared.stopAll(grace: 0.5)
        let strays = stopStrays(grace: 0.5)
        for path in CaptureRegistry.shared.stopAll() { Terminal.printError("kept \(path)") }
        let (targets, startedAt, started, results) = pending.withLockedValue { $0 }
        let report = RunReport(results: results, startedAt: startedAt, duration: ContinuousClock.now - started, interrupted: true, notes: strays)
        try? ReportWriter.write(report, to: targets)
        exit(exitCode)
    }

    /// Stops what subjects left running in the background, and says so on stderr; the same
    /// words for the reports.
    @discardableResult
    static func stopStrays(grace: TimeInterval = 2) -> [String] {
        let stopped = StrayProcesses.stopAll(grace: grace)
        guard !stopped.isEmpty else { return [] }
        let lines = ["stopped \(stopped.count) process\(stopped.count == 1 ? "" : "es") that subjects left running in the background (run servers in the foreground):"]
            + stopped.map { "  " + $0 }
        for line in lines { Terminal.printError(line) }
        return [lines.joined(separator: "\n")]
    }

    /// Lifts the soft limit on open files to the hard limit, for large `parallel` blocks.
    static func raiseFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
