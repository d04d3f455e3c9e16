import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ProbeCapture
import ProbeHost
import ProbeResults
import ProbeScript
import Synchronization

/// One whole `tcpprobe run`, the entry point the command line hands its parsed options to. It
/// owns what belongs to the process (signals, the open-file limit, the processes subjects
/// leave behind), runs the scenarios in a batch and assembles the run's report. It never
/// prints: what happens reaches the caller through its callbacks and the report.
package final class RunSession: Sendable {
    /// What a run cut short by Ctrl-C or SIGTERM leaves: the report of the scenarios that
    /// finished (marked interrupted), the captures kept, and the code the process exits with.
    package struct Interruption: Sendable {
        package let report: RunReport
        package let keptCaptures: [String]
        package let exitCode: Int32
    }

    /// How long a subject or stray gets between SIGTERM and SIGKILL at the end of a run, and
    /// on an interruption.
    static let endGrace: TimeInterval = 2
    static let interruptGrace: TimeInterval = 0.5

    private let batch: BatchRunner
    private let repetitions: Int
    /// The results so far, for the report of an interrupted run.
    private let finished = Mutex<(startedAt: String, started: ContinuousClock.Instant, results: [ScenarioResult])>(("", .now, []))
    /// Kept alive while the process runs; set once, before any signal can arrive.
    private nonisolated(unsafe) static var signalSources: [DispatchSourceSignal] = []

    package init(options: RunOptions, jobs: Int, failFast: Bool, repetitions: Int) {
        batch = BatchRunner(runner: ScenarioRunner(options: options), jobs: jobs, failFast: failFast)
        self.repetitions = max(1, repetitions)
    }

    /// Makes this process ready for a run: it reaps what subjects leave behind, and on Ctrl-C
    /// or SIGTERM stops every subject, stray and capture, hands `onInterrupt` what the run had
    /// finished, and exits 130 or 143, within about a second. (tcpprobe's `main` has already
    /// raised the limit on open files and grown the descriptor table, while it had one thread.)
    package func takeOverProcess(onInterrupt: @escaping @Sendable (Interruption) -> Void) {
        StrayProcesses.adopt()
        for (number, code) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                onInterrupt(interrupted(exitCode: code))
                exit(code)
            }
            source.resume()
            Self.signalSources.append(source)
        }
    }

    /// Runs `scenarios`, each `repetitions` times, after reporting the `skipped` ones as
    /// skipped with their reasons; `onResult` gets every result, in order, as it is ready.
    /// Stops what subjects left running in the background, and says so in the report's notes.
    /// Returns the report and how many runs `failFast` left unstarted.
    package func run(_ scenarios: [Scenario], skipping skipped: [(scenario: Scenario, reason: String)],
                    onResult: @escaping @Sendable (ScenarioResult) -> Void) async -> (report: RunReport, notStarted: Int) {
        let clock = ContinuousClock()
        let started = clock.now
        let startedAt = Date().formatted(.iso8601)
        let cleared = Self.clearEndedRuns()
        finished.withLock { $0 = (startedAt, started, []) }
        let skippedResults = skipped.map {
            ScenarioResult(path: $0.scenario.path, title: $0.scenario.title, outcome: .skipped($0.reason), duration: .zero, log: [], notes: [])
        }
        for result in skippedResults {
            finished.withLock { $0.results.append(result) }
            onResult(result)
        }
        let ran = await batch.run(scenarios, repetitions: repetitions) { [self] result in
            finished.withLock { $0.results.append(result) }
            onResult(result)
        }
        let report = RunReport(results: skippedResults + ran, startedAt: startedAt, duration: clock.now - started,
                               notes: cleared + Self.stopStrays(grace: Self.endGrace))
        return (report, scenarios.count * repetitions - ran.count)
    }

    private func interrupted(exitCode: Int32) -> Interruption {
        SubjectRegistry.shared.stopAll(grace: Self.interruptGrace)
        NetworkNamespace.removeAllLive()
        let strays = Self.stopStrays(grace: Self.interruptGrace)
        let kept = CaptureRegistry.shared.stopAll()
        let (startedAt, started, results) = finished.withLock { $0 }
        let report = RunReport(results: results, startedAt: startedAt, duration: ContinuousClock.now - started, interrupted: true, notes: strays)
        return Interruption(report: report, keptCaptures: kept, exitCode: exitCode)
    }

    /// Stops what the subjects of a run that was killed left running (its subjects died with
    /// it), and removes its networks: one note naming what was stopped, or none.
    private static func clearEndedRuns() -> [String] {
        let stopped = StrayProcesses.stopLeftByEndedRuns(grace: endGrace)
        NetworkNamespace.removeStale()
        guard !stopped.isEmpty else { return [] }
        let lines = ["stopped \(stopped.count) process\(stopped.count == 1 ? "" : "es") left running by a tcpprobe run that was killed:"]
            + stopped.map { "  " + $0 }
        return [lines.joined(separator: "\n")]
    }

    /// Stops what subjects left running in the background: one note naming them, or none.
    private static func stopStrays(grace: TimeInterval) -> [String] {
        let stopped = StrayProcesses.stopAll(grace: grace)
        guard !stopped.isEmpty else { return [] }
        let lines = ["stopped \(stopped.count) process\(stopped.count == 1 ? "" : "es") that subjects left running in the background (run servers in the foreground):"]
            + stopped.map { "  " + $0 }
        return [lines.joined(separator: "\n")]
    }
}
