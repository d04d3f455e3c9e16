@testable import ProbeRunner
import ProbeScript
import Testing

/// Expected and received bytes one above the other, with the first difference marked: as text,
/// or as hex for bytes that are not text and for expected bytes with `??`.
@Suite struct ByteDiffTests {
    private func pattern(_ text: String) -> BytePattern { BytePattern(Array(text.utf8)) }

    @Test func aCaretMarksTheFirstDifferingByte() {
        #expect(ByteDiff.render(expected: pattern("pong"), received: Array("pang".utf8)) == """
            expected: "pong"
            received: "pang"
                        ^ first difference at byte 1
            """)
    }

    @Test func escapesShiftTheCaretAndAShortReceiptSaysWhereItEnds() {
        let rendered = ByteDiff.render(expected: pattern("a\r\nb"), received: Array("a\r\nc".utf8), expectedLabel: "expected line", receivedLabel: "received line")
        #expect(rendered.split(separator: "\n").last == "                     ^ first difference at byte 3", "\(rendered)")
        let short = ByteDiff.render(expected: pattern("abc"), received: Array("ab".utf8))
        #expect(short.hasSuffix("  ^ received ends at byte 2"), "\(short)")
        #expect(!ByteDiff.render(expected: BytePattern([1]), received: [1]).contains("^"))
    }

    @Test func binaryBytesAreShownAsHexWithTheCaretUnderTheByte() {
        #expect(ByteDiff.render(expected: BytePattern([0x20, 0x02, 0x00, 0x00]), received: [0x20, 0x02, 0x00, 0x05]) == """
            expected: hex"20 02 00 00"
            received: hex"20 02 00 05"
                                   ^ first difference at byte 3
            """)
        // Text expected, binary received: both in hex, so the two line up byte for byte.
        #expect(ByteDiff.render(expected: pattern("OK"), received: [0x4f, 0xff]) == """
            expected: hex"4f 4b"
            received: hex"4f ff"
                             ^ first difference at byte 1
            """)
    }

    @Test func anyByteIsShownAsQuestionMarksAndTakesAnyByte() {
        let publishAck = BytePattern([0x40, 0x02, 0x00, 0x00], anyByteAt: [3])
        #expect(ByteDiff.render(expected: publishAck, received: [0x40, 0x03, 0x00, 0x81]) == """
            expected: hex"40 02 00 ??"
            received: hex"40 03 00 81"
                             ^ first difference at byte 1
            """)
        #expect(!ByteDiff.render(expected: publishAck, received: [0x40, 0x02, 0x00, 0x81]).contains("^"))
    }

    @Test func firstDifference() {
        #expect(BytePattern([1, 2, 3]).firstDifference([1, 2, 3]) == nil)
        #expect(BytePattern([1, 2, 3]).firstDifference([1, 9, 3]) == 1)
        #expect(BytePattern([1, 2]).firstDifference([1, 2, 3]) == 2)
        #expect(BytePattern([]).firstDifference([0]) == 0)
        #expect(BytePattern([1, 0, 3], anyByteAt: [1]).firstDifference([1, 9, 3]) == nil)
        #expect(BytePattern([1, 0, 3], anyByteAt: [1]).firstDifference([1, 9, 4]) == 2)
        #expect(BytePattern([1, 0], anyByteAt: [1]).firstDifference([1]) == 1, "a wildcard still needs its byte")
        #expect(BytePattern([1, 0], anyByteAt: [1]).matches([1, 7]))
        #expect(!BytePattern([1, 0], anyByteAt: [1]).matches([1, 7, 8]))
        #expect(!BytePattern([1, 0], anyByteAt: [1]).matches([2, 7]))
        #expect(!BytePattern([1, 2]).matches([1, 3]) && BytePattern([1, 2]).matches([1, 2]))
    }
}
