import ArgumentParser
import FoundationEssentials
import ProbeHost
#if canImport(Glibc)
import Glibc
#endif

@main
struct TCPProbe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tcpprobe",
        abstract: "A test harness for TCP transports: scripted scenarios, injected faults, wire assertions.",
        version: ReleaseVersion.current,
        subcommands: [RunCommand.self, CheckCommand.self, FormatCommand.self, ShowCommand.self, ImportCommand.self, RecordCommand.self, ProxyCommand.self, MergeCommand.self, AutobahnCommand.self, H2SpecCommand.self, GrammarCommand.self]
    )

    /// Runs the command line; usage errors exit 2, as the scenario language contract says.
    static func main() async {
        // While this is the only thread: the descriptor table grows now without the wait it
        // costs a process with threads, instead of in the middle of a step (DescriptorTable).
        DescriptorLimit.raiseToHard()
        DescriptorTable.grow(toHold: DescriptorTable.startingSize)
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                Terminal.printError(fullMessage(for: error))
                Glibc.exit(ExitCode.invalidInput.rawValue)
            }
            exit(withError: error)
        }
    }
}
