import ArgumentParser

/// `tcpprobe autobahn`: Autobahn|Testsuite's commands, run on tcpprobe's own WebSocket suites,
/// with its spec files and its reports' layout, for the projects that test against it.
struct AutobahnCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "autobahn",
        abstract: "Autobahn|Testsuite's fuzzingclient and fuzzingserver, on tcpprobe's WebSocket suites, with its spec files and reports.",
        subcommands: [AutobahnFuzzingClientCommand.self, AutobahnFuzzingServerCommand.self]
    )
}
