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
}
