import ProbeResults

/// TAP version 14: a plan, one test point per scenario, YAML diagnostics for failures.
enum TAPReport {
    static func render(_ run: RunReport) -> String {
        var lines = ["TAP version 14", "1..\(run.results.count)"]
        for (index, result) in run.results.enumerated() {
            let number = index + 1
            let description = "\(result.title) (\(result.path))".replacing("#", with: "\\#")
            switch result.outcome {
            case .passed:
                lines.append("ok \(number) - \(description)")
                if let skippedWire = result.skippedWireText { lines.append("# \(skippedWire): capture was not possible") }
            case .skipped(let reason):
                lines.append("ok \(number) - \(description) # SKIP \(reason)")
            case .failed(let failure):
                lines.append("not ok \(number) - \(description)")
                lines.append("  ---")
                lines.append("  message: \(yaml(failure.message.split(separator: "\n").first.map(String.init) ?? ""))")
                lines.append("  severity: \(failure.kind == .environment ? "error" : "fail")")
                lines.append("  at: \(yaml(failure.location.fileAndLine))")
                lines.append("  step: \(yaml(failure.step))")
                lines.append("  details: |")
                lines += failure.message.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
                lines.append("  duration_ms: \(Int(result.duration / .milliseconds(1)))")
                lines.append("  ...")
            }
        }
        lines += run.notes.flatMap { $0.split(separator: "\n").map { "# " + $0 } }
        if run.interrupted { lines.append("Bail out! interrupted") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A YAML scalar in double quotes.
    private static func yaml(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}
