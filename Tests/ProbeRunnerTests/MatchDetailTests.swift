import NIOCore
import ProbeFraming
@testable import ProbeRunner
import Testing

/// What a match's log entry says: its words, the bytes it shows, what follows them, a
/// message's header shown apart, and whether a reset decided it, through each way a detail is
/// made from another.
@Suite struct MatchDetailTests {
    private let header = FramedHeader(bytes: ByteBuffer(bytes: [0x20, 0x02]), headLength: 1, isVarint: true)

    @Test func aPlainDetailShowsItsWordsAndEscapedBytes() {
        #expect(MatchDetail("line", showing: Array("hi".utf8)).description == "line \"hi\"")
        #expect(MatchDetail("no close frame: FIN").description == "no close frame: FIN")
        #expect(MatchDetail("3 bytes:", showing: Array("abc".utf8), after: " then more").description == "3 bytes: \"abc\" then more")
        #expect(!MatchDetail("line").decidedByReset)
    }

    @Test func aBinaryMessageShowsItsHeaderApartAndTextDoesNot() {
        let binary = MatchDetail("message", showing: [1]).framed(by: header, payload: [0, 0])
        #expect(binary.description == "message head 20 · length 02 (varint) · payload 00 00")
        let text = MatchDetail("message", showing: [1]).framed(by: FramedHeader(bytes: ByteBuffer(bytes: [0x02]), headLength: 0, isVarint: false),
                                                            payload: Array("ok".utf8))
        #expect(text.description == "message \"ok\"")
    }

    @Test func addingKeepsTheHeaderTheResetAndWhatCameAfter() {
        var detail = MatchDetail("line", showing: Array("a".utf8), after: ", first")
        detail.decidedByReset = true
        let added = detail.adding(", second")
        #expect(added.description == "line \"a\", first, second")
        #expect(added.decidedByReset)
        let framed = MatchDetail("message").framed(by: header, payload: [0]).adding(" (late)")
        #expect(framed.description == "message head 20 · length 02 (varint) · payload 00 (late)")
        #expect(!framed.decidedByReset)
    }

    @Test func settingTheResetKeepsEverythingElse() {
        var detail = MatchDetail("message").framed(by: header, payload: [0]).adding(", more")
        let before = detail.description
        detail.decidedByReset = true
        #expect(detail.decidedByReset)
        #expect(detail.description == before)
        detail.decidedByReset = false
        #expect(!detail.decidedByReset)
        #expect(detail.description == before)
    }
}
