import FoundationEssentials
import ProbeReport
import ProbeScript

/// h2spec's JUnit report: a `testsuite` for each section with cases (`name="6.9.1. The
/// Flow-Control Window"`, `package="http2/6.9.1"`, `id="6.9.1"`), a `testcase` for each case
/// (`package`, `classname` its description, `time`), a failure's reason in `failure`. Unlike
/// h2spec's, every text is escaped, so a reason that quotes the peer's bytes leaves the XML
/// well-formed.
package enum H2SpecJUnit {
    package static func render(_ catalog: H2SpecCatalog, _ results: [String: H2SpecResult]) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
        for section in catalog.sections {
            let ran = catalog.cases.filter { $0.section == section.id }.compactMap { results[$0.id] }
            guard !ran.isEmpty else { continue }
            let failures = ran.filter { $0.verdict == .failed }.count
            let skipped = ran.filter { $0.verdict == .skipped }.count
            out += "  <testsuite name=\"\(escape(section.heading))\" package=\"\(escape(section.id))\" id=\"\(escape(section.number ?? section.id))\""
                + " tests=\"\(ran.count)\" skipped=\"\(skipped)\" failures=\"\(failures)\" errors=\"0\">\n"
            for result in ran {
                out += "    <testcase package=\"\(escape(section.id))\" classname=\"\(escape(result.testCase.description))\""
                    + " time=\"\(DurationFormat.seconds(result.duration, places: 4))\""
                switch result.verdict {
                case .passed: out += "></testcase>\n"
                case .skipped: out += ">\n      <skipped>\(escape(result.why.joined(separator: "\n")))</skipped>\n    </testcase>\n"
                case .failed:
                    let text = "Expect:\n" + result.testCase.requirement + "\nActual:\n" + result.why.joined(separator: "\n")
                    out += ">\n      <failure>\(escape(text))</failure>\n    </testcase>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    private static func escape(_ text: String) -> String { XMLEscaping.escape(text) }
}
