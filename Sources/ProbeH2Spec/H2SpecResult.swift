import ProbeResults

/// One case's verdict as h2spec counts it, with what the scenario said.
package struct H2SpecResult: Sendable {
    package enum Verdict: Sendable { case passed, failed, skipped }

    package var testCase: H2SpecCatalog.Case
    package var verdict: Verdict
    /// Where and why it failed (`file:line: step`, then the reason), or why it was skipped.
    package var why: [String]
    package var duration: Duration
    /// The scenario's step log, for `-v`.
    package var log: [String]

    package init(_ testCase: H2SpecCatalog.Case, _ result: ScenarioResult) {
        self.testCase = testCase
        duration = result.duration
        log = result.log.map { "[\(($0.location.map { "\($0.file.split(separator: "/").last ?? ""):\($0.line)" }) ?? "-")] \($0.message)" }
        switch result.outcome {
        case .passed: (verdict, why) = (.passed, [])
        case .skipped(let reason): (verdict, why) = (.skipped, [reason])
        case .failed(let failure): (verdict, why) = (.failed, ["at \(failure.location.fileAndLine): \(failure.step)", failure.message])
        }
    }
}
