@testable import ProbeRunner
import Testing

/// Expected and received bytes one above the other, with the first difference marked.
@Suite struct ByteDiffTests {
    @Test func aCaretMarksTheFirstDifferingByte() {
        #expect(ByteDiff.render(expected: Array("pong".utf8), received: Array("pang".utf8)) == """
            expected: "pong"
            received: "pang"
                        ^ first difference at byte 1
            """)
    }

    @Test func escapesShiftTheCaretAndAShortReceiptSaysWhereItEnds() {
        let rendered = ByteDiff.render(expected: Array("a\r\nb".utf8), received: Array("a\r\nc".utf8), expectedLabel: "expected line", receivedLabel: "received line")
        #expect(rendered.split(separator: "\n").last == "                     ^ first difference at byte 3", "\(rendered)")
        let short = ByteDiff.render(expected: Array("abc".utf8), received: Array("ab".utf8))
        #expect(short.hasSuffix("  ^ received ends at byte 2"), "\(short)")
        #expect(!ByteDiff.render(expected: [1], received: [1]).contains("^"))
    }

    @Test func firstDifference() {
        #expect(ByteDiff.firstDifference([1, 2, 3], [1, 2, 3]) == nil)
        #expect(ByteDiff.firstDifference([1, 2, 3], [1, 9, 3]) == 1)
        #expect(ByteDiff.firstDifference([1, 2], [1, 2, 3]) == 2)
        #expect(ByteDiff.firstDifference([], [0]) == 0)
    }
}
