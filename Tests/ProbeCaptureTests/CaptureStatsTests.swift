import Testing
@testable import ProbeCapture

/// A capture's counters say whether it can judge the wire, and what to do when it cannot.
@Suite struct CaptureStatsTests {
    @Test func aCaptureThatLostNothingIsComplete() {
        #expect(CaptureStats(received: 20_000, dropped: 0, interfaceDropped: 0).incompleteness == nil)
    }

    @Test func aFullBufferNamesItsRemedies() throws {
        let why = try #require(CaptureStats(received: 20_000, dropped: 12_954, interfaceDropped: 0).incompleteness)
        #expect(why.hasPrefix("the capture dropped 12954 packets"))
        #expect(why.contains("--capture-buffer") && why.contains("--snaplen"))
    }

    @Test func theInterfacesDropsCountButNoBufferRemedy() throws {
        let why = try #require(CaptureStats(received: 100, dropped: 0, interfaceDropped: 3).incompleteness)
        #expect(why == "the capture dropped 3 packets")
    }

    @Test func aCaptureCountsFromItsRingsBaseline() {
        let ring = CaptureStats(received: 500, dropped: 7, interfaceDropped: 1)
        let later = CaptureStats(received: 800, dropped: 7, interfaceDropped: 1)
        #expect(later.since(ring) == CaptureStats(received: 300, dropped: 0, interfaceDropped: 0))
        #expect(later.since(ring).incompleteness == nil)
    }
}
