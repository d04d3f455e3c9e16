import ProbeScript
import Testing

/// Bytes as the log and failures show them: escaped, and cut at a limit.
@Suite struct ByteEscaperTests {
    @Test func aPreviewIsEscapedAndCutAtItsLimit() {
        #expect(ByteEscaper.preview(Array("ok\r\n".utf8)) == #""ok\r\n""#)
        #expect(ByteEscaper.preview(Array("abcdef".utf8), limit: 3) == #""abc"… (6 bytes)"#)
        #expect(ByteEscaper.preview(Array("abc".utf8), limit: 80, total: 1000) == #""abc"… (1000 bytes)"#)
        #expect(ByteEscaper.escape([0, 0x7f, 0x41]) == #"\0\x7fA"#)
    }

    /// The forms for arrays and their slices (compiled in ProbeScript, for callers elsewhere)
    /// say what the generic form says.
    @Test(arguments: ["ok\r\n", "abcdef", "", "caf\u{e9}", "\u{0}\u{7f}\u{1}binary"])
    func theArrayFormsAgreeWithTheGenericOne(_ text: String) {
        let bytes = Array(text.utf8)
        let generic = ByteEscaper.preview(bytes.lazy.map { $0 }, limit: 4, total: 9)
        #expect(ByteEscaper.preview(bytes, limit: 4, total: 9) == generic)
        #expect(ByteEscaper.preview(bytes[...], limit: 4, total: 9) == generic)
    }

    @Test func aPatternMatchesAnArrayAsItMatchesAnyCollection() {
        let pattern = BytePattern([0x90, 0x03, 0, 0x00], anyByteAt: [2])
        for received: [UInt8] in [[0x90, 0x03, 0x7f, 0x00], [0x90, 0x03, 0x7f], [0x91, 0x03, 0x7f, 0x00], []] {
            #expect(pattern.matches(received) == pattern.matches(received.lazy.map { $0 }), "\(received)")
        }
        #expect(pattern.matches([0x90, 0x03, 0x55, 0x00]))
        #expect(!BytePattern(Array("ab".utf8)).matches(Array("abc".utf8)))
        #expect(BytePattern(Array("ab".utf8)).matches(Array("ab".utf8)))
    }
}
