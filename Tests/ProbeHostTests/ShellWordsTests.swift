@testable import ProbeHost
import Testing

/// A command split into argv as a POSIX shell splits words, with no shell.
@Suite struct ShellWordsTests {
    @Test(arguments: [
        ("linechat serve --port 7000", ["linechat", "serve", "--port", "7000"]),
        ("  a \t b\nc  ", ["a", "b", "c"]),
        ("sh -c 'echo $HOME; exit 1'", ["sh", "-c", "echo $HOME; exit 1"]),
        (#"say "a \"quoted\" \$word \\ \n""#, ["say", #"a "quoted" $word \ \n"#]),
        (#"one\ word two"#, ["one word", "two"]),
        (#"''"#, [""]),
        (#"a"b"'c'"#, ["abc"]),
        ("", []),
    ])
    func splitsLikeAShell(_ command: String, _ words: [String]) throws {
        #expect(try ShellWords.split(command) == words)
    }

    @Test func unterminatedQuotesAndATrailingBackslashAreErrors() {
        #expect(throws: ShellWords.SplitError.self) { try ShellWords.split("echo 'open") }
        #expect(throws: ShellWords.SplitError.self) { try ShellWords.split(#"echo "open"#) }
        #expect(throws: ShellWords.SplitError.self) { try ShellWords.split(#"echo \"#) }
        #expect((try? ShellWords.split("echo 'open")) == nil)
        do {
            _ = try ShellWords.split(#"echo "x"#)
        } catch {
            #expect("\(error)" == "unterminated \" quote")
        }
    }
}
