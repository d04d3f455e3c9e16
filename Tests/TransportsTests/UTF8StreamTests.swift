@testable import Transports
import Testing

/// UTF-8 checked piece by piece, as a text message's fragments arrive.
@Suite struct UTF8StreamTests {
    /// Feeds `pieces` (hex strings) in turn: the index of the first piece refused, or nil, and
    /// whether the text ended whole.
    static func feed(_ pieces: [String]) -> (refusedAt: Int?, complete: Bool) {
        var stream = UTF8Stream()
        for (index, piece) in pieces.enumerated() {
            let bytes = stride(from: 0, to: piece.count, by: 2).map { offset in
                UInt8(piece.dropFirst(offset).prefix(2), radix: 16)!
            }
            if !stream.take(bytes) { return (index, false) }
        }
        return (nil, stream.isComplete)
    }

    @Test func aCharacterCutBetweenPiecesIsTaken() {
        // κόσμε, one byte at a time: every character but the first ASCII-free one is cut.
        let kosme = ["ce", "ba", "e1", "bd", "b9", "cf", "83", "ce", "bc", "ce", "b5"]
        #expect(Self.feed(kosme) == (nil, true))
        #expect(Self.feed(["f0a4", "ada2"]) == (nil, true), "U+24B62 in two halves")
    }

    @Test func textRefusedAtTheFirstPieceThatNoUTF8CanHold() {
        #expect(Self.feed(["cebae1bdb9cf83cebcceb5", "f4", "90", "8080"]).refusedAt == 2, "U+110000: F4 90 is refused at the 90")
        #expect(Self.feed(["6564", "ed", "a080"]).refusedAt == 2, "a surrogate: ED A0")
        #expect(Self.feed(["e0", "80af"]).refusedAt == 1, "an overlong: E0 80")
        #expect(Self.feed(["c0"]).refusedAt == 0, "C0 begins no character")
        #expect(Self.feed(["f8"]).refusedAt == 0)
        #expect(Self.feed(["41", "80"]).refusedAt == 1, "a continuation byte with nothing to continue")
    }

    @Test func textEndingInTheMiddleOfACharacterIsNotComplete() {
        #expect(Self.feed(["68656c6c6f", "e282"]) == (nil, false))
        #expect(Self.feed([]) == (nil, true))
    }
}
