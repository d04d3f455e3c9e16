import ArgumentParser
import ProbeScript

/// `tcpprobe grammar`: prints every statement of the language, from the parser's own table;
/// with `--textmate`, a TextMate grammar for editors made from the same table.
struct GrammarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grammar",
        abstract: "Print the synopsis of every statement of the scenario language (or, with --textmate, an editor grammar)."
    )

    @Flag(help: "Print a TextMate grammar for .scn files (editors/vscode holds it, for VS Code).")
    var textmate = false

    func run() {
        print(textmate ? TextMateGrammar.json : Grammar.reference, terminator: textmate ? "" : "\n")
    }
}
