import ArgumentParser

@main
struct TCPProbe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tcpprobe",
        abstract: "A test harness for TCP transports: scripted scenarios, injected faults, wire assertions.",
        subcommands: [RunCommand.self, CheckCommand.self, GrammarCommand.self]
    )
}
