/// Secrets taken out of what a run reports: wherever a secret's value appears (a step log, a
/// failure, a note, the bytes received, the wire's previews), it reads "***".
package struct Redaction: Sendable {
    private let secrets: [String]

    /// `secrets`' empty values are left out, and longer ones go first, so that a secret that
    /// contains another is taken out whole.
    package init(secrets: [String]) {
        self.secrets = secrets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    package var isEmpty: Bool { secrets.isEmpty }

    package func apply(_ text: String) -> String {
        secrets.reduce(text) { $0.replacing($1, with: "***") }
    }

    private func apply(_ bytes: [UInt8]) -> [UInt8] {
        secrets.reduce(bytes) { $0.replacing(Array($1.utf8), with: Array("***".utf8)) }
    }

    package func apply(_ result: ScenarioResult) -> ScenarioResult {
        guard !isEmpty else { return result }
        var result = result
        result.title = apply(result.title)
        result.log = result.log.map { entry in
            var entry = entry
            entry.message = apply(entry.message)
            return entry
        }
        result.notes = result.notes.map(apply)
        result.wire = result.wire.map { event in
            var event = event
            event.preview = apply(event.preview)
            event.unit = event.unit.map(apply)
            return event
        }
        if case .failed(var failure) = result.outcome {
            failure.step = apply(failure.step)
            failure.message = apply(failure.message)
            failure.recentBytes = apply(failure.recentBytes)
            result.outcome = .failed(failure)
        }
        return result
    }

    package func apply(_ report: RunReport) -> RunReport {
        guard !isEmpty else { return report }
        var report = report
        report.results = report.results.map(apply)
        report.notes = report.notes.map(apply)
        return report
    }
}
