import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Autobahn|Testsuite's spec files, as its users keep them: for `wstest -m fuzzingclient` the
/// servers to test (an agent name and a URL each), for `-m fuzzingserver` the URL to listen
/// on; for both the cases to run and those to leave out, as globs on case numbers ("*", "6.*",
/// "12.*.1"), and the folder for the reports.
package struct AutobahnSpec: Decodable, Sendable {
    package struct Server: Decodable, Sendable {
        var agent: String
        var url: String
    }

    package var outdir: String?
    package var servers: [Server]?
    package var url: String?
    var cases: [String]?
    var excludeCases: [String]?
    var excludeAgentCases: [String: [String]]?

    enum CodingKeys: String, CodingKey {
        case outdir, servers, url, cases
        case excludeCases = "exclude-cases"
        case excludeAgentCases = "exclude-agent-cases"
    }

    /// Reads the spec at `path`, saying what is wrong with it.
    package static func load(_ path: String) throws -> AutobahnSpec {
        guard let data = FileManager.default.contents(atPath: path) else { throw AutobahnError("cannot read the spec \(path)") }
        do {
            return try JSONDecoder().decode(AutobahnSpec.self, from: data)
        } catch {
            throw AutobahnError("\(path) is not an Autobahn spec: \(error)")
        }
    }

    /// Whether the spec runs `caseID` against `agent`: a glob of `cases` takes it (all, when
    /// there are none) and none of `exclude-cases` or the agent's own exclusions does.
    package func selects(_ caseID: String, for agent: String) -> Bool {
        Self.matches(caseID, cases ?? ["*"])
            && !Self.matches(caseID, excludeCases ?? [])
            && !Self.matches(caseID, excludeAgentCases?[agent] ?? [])
    }

    /// Autobahn matches with Python's fnmatch: `*` any run of characters, `?` any one.
    static func matches(_ caseID: String, _ globs: [String]) -> Bool {
        globs.contains { fnmatch($0, caseID, 0) == 0 }
    }
}
