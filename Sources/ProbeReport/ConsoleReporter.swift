import ProbeResults
import ProbeScript

/// Formats run results for a terminal: one line per scenario, and the details of a failure.
package struct ConsoleReporter: Sendable {
    package var useColour: Bool
    /// Show every scenario's step log, not only failing ones'.
    package var verbose: Bool

    package init(useColour: Bool, verbose: Bool = false) {
        self.useColour = useColour
        self.verbose = verbose
    }

    private func paint(_ text: String, _ code: String) -> String {
        useColour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// The one line of a scenario: mark, title, file, duration; then details when it failed.
    package func render(_ result: ScenarioResult) -> String {
        let duration = paint(DurationFormat.short(result.duration), "2")
        var lines: [String] = []
        switch result.outcome {
        case .passed:
            let skippedWire = result.skippedWireText.map { " " + paint("(\($0))", "33") } ?? ""
            lines.append("\(paint("✔", "32")) \(result.title) \(paint("(\(result.path))", "2")) \(duration)\(skippedWire)")
        case .skipped(let reason):
            lines.append("\(paint("-", "33")) \(result.title) \(paint("(\(result.path))", "2")) skipped: \(reason)")
        case .failed(let failure):
            let mark = failure.kind == .environment ? paint("!", "1;35") : paint("✘", "1;31")
            lines.append("\(mark) \(result.title) \(paint("(\(result.path))", "2")) \(duration)")
            lines += details(failure).map { "    " + $0 }
        }
        if verbose || !result.outcome.passed {
            if !result.log.isEmpty {
                lines.append("    step log:")
                lines += result.log.map { entry in
                    // Steps of the scenario itself show their line; steps from an include show file:line.
                    let place = entry.location.map { $0.file == result.path ? "\($0.line)" : $0.fileAndLine } ?? "-"
                    return "      \(DurationFormat.offset(entry.offset)) \(place): \(entry.message)"
                }
            }
        }
        for note in result.notes {
            let noteLines = note.split(separator: "\n", omittingEmptySubsequences: false)
            lines.append("    note: " + (noteLines.first.map(String.init) ?? ""))
            lines += noteLines.dropFirst().map { "      " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    private func details(_ failure: StepFailure) -> [String] {
        var lines = ["at \(failure.location.fileAndLine): \(paint(failure.step, "1"))"]
        if failure.kind == .environment { lines.append("environment error:") }
        lines += failure.message.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        var context: [String] = []
        if let connection = failure.connection { context.append("on \(connection)") }
        if let waited = failure.waited { context.append("waited \(DurationFormat.short(waited))") }
        if !context.isEmpty { lines.append(context.joined(separator: ", ")) }
        // Said only of what the failure looked at: one that did not look says nothing.
        if let total = failure.totalReceived, total > 0 {
            lines.append("last \(failure.recentBytes.count) bytes received (\(total) in all): \(ByteEscaper.preview(failure.recentBytes, limit: .max))")
        } else if failure.totalReceived == 0, failure.connection != nil {
            lines.append("nothing was received on that connection")
        }
        return lines
    }

    /// `3 passed, 1 failed` (and skipped), after all scenarios; failures the environment caused
    /// (a subject that did not start, a port taken, no capture: exit code 3) are said apart.
    package func summary(_ run: RunReport) -> String {
        let failed = run.failed + run.errored
        var text = "\(run.passed) passed"
        if let skippedWire = run.skippedWireText { text += " (\(skippedWire))" }
        text += ", \(failed) failed"
        if run.errored > 0 {
            text += run.errored == 1 ? " (1 an environment error, not a verdict)" : " (\(run.errored) environment errors, not verdicts)"
        }
        if run.skipped > 0 { text += ", \(run.skipped) skipped" }
        let colour = failed > 0 ? "1;31" : "1;32"
        return paint(text, colour) + paint(" in \(DurationFormat.short(run.duration))", "2")
    }
}
