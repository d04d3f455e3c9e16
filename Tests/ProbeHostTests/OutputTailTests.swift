import Testing
@testable import ProbeHost

/// A subject's output as `expect stdout` and the failure report see it.
struct OutputTailTests {
    @Test func linesCutAcrossChunksComeWholeWithoutTheirCR() {
        let tail = OutputTail()
        tail.append(Array("rea".utf8)[...])
        #expect(tail.takeLine() == nil, "no line before its newline")
        tail.append(Array("dy\r\nsecond\nthi".utf8)[...])
        #expect(tail.takeLine() == "ready")
        #expect(tail.takeLine() == "second")
        #expect(tail.takeLine() == nil)
        #expect(tail.unreadState.partial == "thi")
        #expect(!tail.isDrained)
        tail.finish()
        #expect(tail.takeLine() == "thi", "a last line without a newline still counts")
        #expect(tail.isDrained)
    }

    @Test func theReportKeepsTheLastBytesAndCountsThemAll() {
        let tail = OutputTail(capacity: 16)
        for number in 0..<10 { tail.append(Array("line \(number)\n".utf8)[...]) }
        let kept = tail.tail(lines: 2)
        #expect(kept.total == 70)
        #expect(kept.text == "line 8\nline 9\n")
    }

    @Test func linesOverThePendingLimitAreCountedAndDropped() {
        let tail = OutputTail()
        let extra = 3
        for number in 0..<(OutputTail.pendingLimit + extra) { tail.append(Array("\(number)\n".utf8)[...]) }
        #expect(tail.unreadState.dropped == extra)
        #expect(tail.takeLine() == "0")
        var taken = 1
        while tail.takeLine() != nil, taken <= OutputTail.pendingLimit { taken += 1 }
        #expect(taken == OutputTail.pendingLimit, "the first lines are kept, the last dropped")
        tail.append(Array("after\n".utf8)[...])
        #expect(tail.takeLine() == "after", "taking lines makes room again")
    }
}
