@testable import ProbeScript
import Testing

/// The keyword enums the parser switches over are the grammar's lists: `tcpprobe grammar`
/// shows each spelling, and a misspelt one is refused with the enum's words.
@Suite struct GrammarKeywordsTests {
    private func spellings() -> [(list: String, words: [String])] {
        [("set", Grammar.SettingWord.spellings), ("connect", Grammar.ConnectOption.spellings),
         ("send", Grammar.SendForm.spellings), ("send modifiers", Grammar.SendModifier.spellings),
         ("expect", Grammar.ExpectForm.spellings), ("expect line", Grammar.LineForm.spellings),
         ("expect stdout", Grammar.OutputForm.spellings), ("read slowly", Grammar.SlowReadStop.spellings),
         ("spawn", Grammar.SpawnOption.spellings), ("accept", Grammar.AcceptOption.spellings),
         ("proxy faults", Grammar.ProxyFaultWord.spellings), ("assert wire", Grammar.WireProperty.spellings),
         ("tls", Grammar.TLSOption.spellings), ("assert tls", Grammar.TLSProperty.spellings)]
    }

    @Test func everyKeywordIsInTheReference() {
        let words = Set(Grammar.reference.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "-" }).map(String.init))
        for (list, spellings) in spellings() {
            for word in spellings {
                #expect(words.contains(word), "'\(word)' of \(list) is missing from tcpprobe grammar")
            }
        }
    }

    @Test func aMisspeltKeywordIsRefusedWithTheEnumsWords() throws {
        let result = Fixtures.load("connect localhost:1\nassert wire from peer zero-windows\n")
        #expect(result.scenario == nil)
        let message = try #require(result.diagnostics.first).description
        #expect(message.contains("'zero-window'") && message.contains("'max-segment'"), "\(message)")
        #expect(message.contains("test.scn:2:23"), "\(message)")
    }
}
