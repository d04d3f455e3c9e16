import ProbeResults
import ProbeScript

extension ScenarioResult {
    /// The failure as one block of text: where, the step, the message.
    var failureText: String? {
        guard let failure else { return nil }
        var text = "\(failure.location.fileAndLine): \(failure.step)\n\(failure.message)"
        if let connection = failure.connection { text += "\non \(connection)" }
        return text
    }

    /// "2 wire checks skipped", or nil when every wire check ran.
    var skippedWireText: String? {
        RunReport.skippedWire(skippedWireChecks)
    }

    /// The step log as text.
    var logText: String {
        (log.map { "\(DurationFormat.offset($0.offset)) \($0.location.map(\.fileAndLine) ?? "-"): \($0.message)" } + notes.map { "note: \($0)" })
            .joined(separator: "\n")
    }
}
