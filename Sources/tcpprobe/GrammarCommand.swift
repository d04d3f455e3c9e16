import ArgumentParser
import ProbeScript

/// `tcpprobe grammar`: prints every statement of the language, from the parser's own table.
struct GrammarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grammar",
        abstract: "Print the synopsis of every statement of the scenario language."
    )

    func run() {
        print(Grammar.reference)
    }
}
