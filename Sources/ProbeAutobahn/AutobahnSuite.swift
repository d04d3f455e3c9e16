import FoundationEssentials

/// Where tcpprobe's WebSocket suites are: `Scenarios/NAME` here, else the one a release
/// installs beside its `bin/`.
package enum AutobahnSuite {
    /// The folder of suite `name` (websocket-server, websocket-client).
    package static func folder(_ name: String) throws -> String {
        let here = "Scenarios/" + name
        if FileManager.default.fileExists(atPath: here) { return here }
        let installed = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Scenarios/" + name).path(percentEncoded: false)
        guard FileManager.default.fileExists(atPath: installed) else {
            throw AutobahnError("cannot find the suite: neither \(here) nor \(installed); name it with --suite")
        }
        return installed
    }
}
