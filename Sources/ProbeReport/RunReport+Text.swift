import ProbeResults
import ProbeScript

/// The words every report uses for a run's skipped wire checks.
extension RunReport {
    /// "2 wire checks skipped" for the whole run, or nil when every wire check ran.
    var skippedWireText: String? { Self.skippedWire(skippedWireChecks) }

    /// "1 wire check skipped", "2 wire checks skipped"; nil for none.
    static func skippedWire(_ count: Int) -> String? {
        count == 0 ? nil : "\(count.counted("wire check")) skipped"
    }
}
