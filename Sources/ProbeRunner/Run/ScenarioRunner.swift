import Crypto
import NIOCore
import NIOPosix
import ProbeResults
import ProbeScript

/// Runs scenarios and turns each into a `ScenarioResult`. It never prints.
package struct ScenarioRunner: Sendable {
    package let options: RunOptions
    private let group: EventLoopGroup

    package init(options: RunOptions = RunOptions(), group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.options = options
        self.group = group
    }

    /// Runs the scenario; with a `split sweep`, runs it again once per split offset.
    package func run(_ scenario: Scenario) async -> ScenarioResult {
        let (discovery, length) = await runOnce(scenario, sweep: .discover)
        guard let length else { return discovery }
        guard discovery.outcome.passed else {
            var result = discovery
            result.notes.append("split sweep not run: the scenario fails with the message sent whole")
            return result
        }
        let plan = SplitSweep(messageLength: length, limit: options.sweepLimit)
        var report = SweepReport(plan: plan, outcomes: [])
        var duration = discovery.duration
        var stopping = discovery.stoppingSubjects
        var firstFailure: ScenarioResult?
        for offset in plan.offsets {
            let (result, _) = await runOnce(scenario, sweep: .offset(offset))
            duration += result.duration
            stopping += result.stoppingSubjects
            report.outcomes.append((offset, result.outcome.passed, result.duration))
            if firstFailure == nil, !result.outcome.passed { firstFailure = result }
        }
        var result = firstFailure ?? discovery
        result.duration = duration
        result.sweep = report
        result.notes.insert(report.summary, at: 0)
        result.stoppingSubjects = stopping
        if stopping >= .seconds(1), stopping * 10 >= duration {
            result.notes.insert("stopping subjects took \(DurationFormat.short(stopping)) of the sweep's \(DurationFormat.short(duration)) "
                                + "(\(plan.offsets.count + 1) runs): a server slow to exit can stay outside the sweep, started before "
                                + "`tcpprobe run` with its port passed in --var", at: 1)
        }
        if case .failed(var failure) = result.outcome, let smallest = report.failingOffsets.first {
            failure.message = "with the swept message split at offset \(smallest):\n" + failure.message
            result.outcome = .failed(failure)
        }
        return result
    }

    private func runOnce(_ scenario: Scenario, sweep: SweepRun.Mode) async -> (ScenarioResult, sweptLength: Int?) {
        // One event loop per run: its channels live there, and so does the task that drives them.
        let loop = group.next()
        let execution = ScenarioExecution(scenario: scenario, options: options, loop: loop, sweep: sweep)
        let outcome: ScenarioResult.Outcome
        do {
            try await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) {
                try await execution.run()
            }
            outcome = .passed
        } catch let failure as StepFailure {
            outcome = .failed(failure)
        } catch let skipped as ScenarioSkipped {
            outcome = .skipped(skipped.reason)
        } catch {
            let reason = error is CancellationError ? CommonFailure.interrupted : CommonFailure.unexpected("\(error)")
            outcome = .failed(StepFailure(at: SourceLocation(file: scenario.path, line: 1, column: 1), step: "", reason: reason))
        }
        var result = ScenarioResult(path: scenario.path, title: scenario.title, outcome: outcome,
                                    duration: execution.elapsed, log: execution.runRecord.takeLog(), notes: execution.runRecord.notes)
        result.parallel = execution.runRecord.parallelSummaries
        result.unjudged = execution.runRecord.unjudged
        if options.part != nil { result.digest = Self.digest(of: scenario) }
        result.stoppingSubjects = execution.runRecord.stoppingSubjects
        result.failedAt = execution.runRecord.failedAt
        result.wire = execution.wire.events
        result.steps = execution.runRecord.steps
        if execution.wire.unavailable != nil {
            result.skippedWireChecks = scenario.allStatements.filter { if case .assertWire = $0.kind { true } else { false } }.count
        }
        return (result, execution.sweep.sweptLength)
    }

    /// The SHA-256 of the scenario's text and its includes' (in the order read, not their
    /// paths, which differ from machine to machine), in hex: parts of one load ran the same text.
    static func digest(of scenario: Scenario) -> String {
        var hash = SHA256()
        for source in scenario.sources {
            hash.update(data: Array(source.text.utf8) + [0])
        }
        return hash.finalize().map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }
}
