import ProbeResults

/// The machine-readable reports `--report FORMAT=FILE` writes.
package enum ReportFormat: String, Sendable, CaseIterable {
    case junit, tap, json, html

    /// Renders every result of a run.
    package func render(_ run: RunReport) -> String {
        switch self {
        case .junit: return JUnitReport.render(run)
        case .tap: return TAPReport.render(run)
        case .json: return JSONReport.render(run)
        case .html: return HTMLReport.render(run)
        }
    }
}
