import ProbeResults
import ProbeScript

/// JUnit XML as Jenkins and GitLab read it: a testsuite per scenario file, a testcase per
/// scenario, per split-sweep offset and per parallel block; `<failure>` for unmet expectations,
/// `<error>` for environment errors, and the step log in `<system-out>`.
enum JUnitReport {
    static func render(_ run: RunReport) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let tests = run.results.reduce(0) { $0 + cases(of: $1).count }
        let failures = run.results.reduce(0) { $0 + cases(of: $1).filter { $0.failure != nil }.count }
        xml += #"<testsuites name="tcpprobe" tests="\#(tests)" failures="\#(failures)" errors="\#(run.errored)" time="\#(DurationFormat.seconds(run.duration))">"# + "\n"
        for result in run.results {
            let suiteCases = cases(of: result)
            let suiteFailures = suiteCases.filter { $0.failure != nil }.count
            let error = result.failure?.kind == .environment
            let skipped = suiteCases.filter { $0.skipped != nil }.count
            xml += "  <testsuite name=\"\(e(result.path))\" tests=\"\(suiteCases.count)\" failures=\"\(suiteFailures)\" errors=\"\(error ? 1 : 0)\" skipped=\"\(skipped)\" time=\"\(DurationFormat.seconds(result.duration))\" timestamp=\"\(e(run.startedAt))\">\n"
            for testCase in suiteCases {
                xml += "    <testcase name=\"\(e(testCase.name))\" classname=\"\(e(result.path))\" time=\"\(testCase.time)\""
                if testCase.failure == nil, testCase.error == nil, testCase.skipped == nil, testCase.output == nil {
                    xml += "/>\n"
                    continue
                }
                xml += ">\n"
                if let failure = testCase.failure {
                    xml += "      <failure message=\"\(e(failure.message))\" type=\"assertion\">\(e(failure.text))</failure>\n"
                }
                if let error = testCase.error {
                    xml += "      <error message=\"\(e(error.message))\" type=\"environment\">\(e(error.text))</error>\n"
                }
                if let skipped = testCase.skipped { xml += "      <skipped message=\"\(e(skipped))\"/>\n" }
                if let output = testCase.output { xml += "      <system-out>\(e(output))</system-out>\n" }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        if !run.notes.isEmpty {
            // The run's own notes, in a suite of no tests: JUnit has no place for them above the suites.
            xml += "  <testsuite name=\"tcpprobe run\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0\" timestamp=\"\(e(run.startedAt))\">\n"
            xml += "    <system-err>\(e(run.notes.joined(separator: "\n")))</system-err>\n  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    private struct Problem { var message: String; var text: String }

    private struct Case {
        var name: String
        var time: String
        var failure: Problem?
        var error: Problem?
        var skipped: String?
        var output: String?
    }

    private static func cases(of result: ScenarioResult) -> [Case] {
        var main = Case(name: result.title, time: DurationFormat.seconds(result.duration), output: result.logText.isEmpty ? nil : result.logText)
        if let failure = result.failure, let text = result.failureText {
            let problem = Problem(message: failure.message.split(separator: "\n").first.map(String.init) ?? "", text: text)
            if failure.kind == .environment { main.error = problem } else { main.failure = problem }
        }
        if case .skipped(let reason) = result.outcome { main.skipped = reason }
        var all = [main]
        if let skippedWire = result.skippedWireText, result.outcome.passed {
            all.append(Case(name: "\(result.title) [\(skippedWire)]", time: "0.000", skipped: "capture was not possible"))
        }
        if let sweep = result.sweep {
            // The scenario's own case is the run with the message whole: it fails only when that
            // run did. An offset's failure is counted once, on the offset, which the scenario's
            // failure (reported at the smallest failing offset) is about.
            let offsetsTook = sweep.outcomes.reduce(Duration.zero) { $0 + $1.duration }
            all[0].time = DurationFormat.seconds(max(.zero, result.duration - offsetsTook))
            let smallest = sweep.failingOffsets.first
            var offsetFailure: Problem?
            if smallest != nil, let failure = all[0].failure {
                offsetFailure = failure
                all[0].failure = nil
            }
            for outcome in sweep.outcomes {
                var offset = Case(name: "\(result.title) [split at offset \(outcome.offset)]", time: DurationFormat.seconds(outcome.duration))
                if !outcome.passed {
                    let generic = Problem(message: "fails with the swept message split at offset \(outcome.offset)", text: sweep.summary)
                    offset.failure = outcome.offset == smallest ? offsetFailure ?? generic : generic
                }
                all.append(offset)
            }
        }
        for summary in result.parallel {
            var block = Case(name: "\(result.title) [parallel \(summary.copies) at line \(summary.location.line)]", time: "0.000",
                             output: summary.description)
            if summary.failed > 0 { block.failure = Problem(message: "\(summary.failed) of \(summary.copies) copies failed", text: summary.description) }
            all.append(block)
        }
        return all
    }

    private static func e(_ text: String) -> String { XMLEscaping.escape(text) }
}
