import FoundationEssentials
import ProbeReport

/// Writes a reports folder in Autobahn|Testsuite's layout: `index.json` (agent → case number →
/// behavior, behaviorClose, duration and report file, as the scripts that read Autobahn's
/// reports expect), a JSON file for each case, and `index.html`, a matrix of cases × agents
/// whose cells open the case's steps in the agent's HTML report (`AGENT.html`, which the caller
/// writes beside them).
enum AutobahnReports {
    private struct IndexEntry: Encodable {
        var behavior: String
        var behaviorClose: String
        var duration: Int
        var reportfile: String
    }

    /// Autobahn's file names (its `cleanForFilename`): lower case, each character but a letter
    /// or a digit a `_`, none at either end.
    static func clean(_ text: String) -> String {
        let kept = text.lowercased().map { ("a"..."z").contains($0) || ("0"..."9").contains($0) ? $0 : "_" }
        return String(kept.drop { $0 == "_" }.reversed().drop { $0 == "_" }.reversed())
    }

    static func caseFile(agent: String, id: String) -> String { "\(clean(agent))_case_\(clean(id)).json" }

    static func agentReport(_ agent: String) -> String { "\(clean(agent)).html" }

    /// Writes the folder for the cases of each agent, in the order the agents ran.
    static func write(_ runs: [(agent: String, cases: [AutobahnCase])], to folder: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var index: [String: [String: IndexEntry]] = [:]
        for (agent, cases) in runs {
            for entry in cases {
                let file = caseFile(agent: agent, id: entry.id)
                index[agent, default: [:]][entry.id] = IndexEntry(behavior: entry.behavior, behaviorClose: entry.behaviorClose,
                                                                  duration: entry.duration, reportfile: file)
                try ReportWriter.write(String(decoding: encoder.encode(entry), as: UTF8.self) + "\n", to: folder + "/" + file)
            }
        }
        try ReportWriter.write(String(decoding: encoder.encode(index), as: UTF8.self) + "\n", to: folder + "/index.json")
        try ReportWriter.write(matrix(runs), to: folder + "/index.html")
    }

    /// The HTML matrix: a row a case, a column an agent, each cell coloured by its behavior.
    static func matrix(_ runs: [(agent: String, cases: [AutobahnCase])]) -> String {
        let e = XMLEscaping.escape
        let byAgent = runs.map { run in Dictionary(run.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) }
        let ids = Set(runs.flatMap { $0.cases.map(\.id) }).sorted(by: AutobahnCase.precedes)
        var html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>tcpprobe: Autobahn|Testsuite cases</title>
            <style>body{font:14px sans-serif}td,th{padding:2px 8px;border:1px solid #ccc}
            .OK{background:#8f8}.NON-STRICT{background:#ff8}.INFORMATIONAL{background:#ddf}.FAILED{background:#f88}
            .UNIMPLEMENTED{background:#eee}a{color:inherit}</style></head><body>
            <h1>Autobahn|Testsuite cases, run by tcpprobe</h1><table><tr><th>case</th>
            """
        html += runs.map { "<th>\(e($0.agent))</th>" }.joined() + "</tr>\n"
        for id in ids {
            html += "<tr><td>\(e(id))</td>"
            for (run, cases) in zip(runs, byAgent) {
                guard let entry = cases[id] else {
                    html += "<td></td>"
                    continue
                }
                let title = e(entry.description + (entry.failure.map { "\n" + $0 } ?? "") + entry.notes.map { "\n" + $0 }.joined())
                let label = entry.behaviorClose == "OK" || entry.behaviorClose == entry.behavior ? entry.behavior : "\(entry.behavior) (\(entry.behaviorClose))"
                let link = entry.reportSection.map { "\(agentReport(run.agent))#\($0)" } ?? caseFile(agent: run.agent, id: id)
                html += "<td class=\"\(entry.behavior)\" title=\"\(title)\"><a href=\"\(e(link))\">\(e(label))</a></td>"
            }
            html += "</tr>\n"
        }
        return html + "</table></body></html>\n"
    }
}
