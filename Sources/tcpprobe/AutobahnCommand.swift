import ArgumentParser
import FoundationEssentials

/// `tcpprobe autobahn`: Autobahn|Testsuite's commands, run on tcpprobe's own WebSocket suites,
/// with its spec files and its reports' layout, for the projects that test against it.
struct AutobahnCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "autobahn",
        abstract: "Autobahn|Testsuite's fuzzingclient and fuzzingserver, on tcpprobe's WebSocket suites, with its spec files and reports.",
        subcommands: [AutobahnFuzzingClientCommand.self, AutobahnFuzzingServerCommand.self]
    )

    /// The suite `name` (websocket-server, websocket-client): `Scenarios/NAME` here, else the
    /// one a release installs beside its `bin/`.
    static func suite(_ name: String) throws -> String {
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
