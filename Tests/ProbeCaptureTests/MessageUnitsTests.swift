import Testing
@testable import ProbeCapture
import ProbeScript

/// Cutting a captured stream into length-prefixed messages: complete ones only, and a hostile
/// header (4 GiB, or above Int.max) ends the cut without a trap.
@Suite struct MessageUnitsTests {
    @Test func lengthPrefixedRanges() {
        let units = MessageUnits.length(LengthHeader(width: 2))
        let stream: [UInt8] = [0, 2, 104, 105, 0, 0, 0, 3, 97]
        #expect(units.ranges(in: stream) == [0..<4, 4..<6])
        #expect(Array(units.payload(0..<4, in: stream)) == [104, 105])
        let hostile = MessageUnits.length(LengthHeader(width: 8))
        #expect(hostile.ranges(in: [UInt8](repeating: 0xff, count: 12)).isEmpty)
        #expect(MessageUnits.length(LengthHeader(width: 4)).ranges(in: [0xff, 0xff, 0xff, 0xff, 1]).isEmpty)
    }

    @Test func linesAreCutByTheirTerminator() {
        let units = MessageUnits.lines(terminator: [13, 10])
        let stream = Array("a\r\nbc\r\nd".utf8)
        #expect(units.ranges(in: stream) == [0..<3, 3..<7])
        #expect(Array(units.payload(3..<7, in: stream)) == Array("bc".utf8))
    }
}
