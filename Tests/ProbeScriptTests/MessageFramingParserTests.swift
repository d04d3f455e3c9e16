import Testing
@testable import ProbeScript

/// `set framing`, `set max-message`, `send message`, `expect message` and the wire checks of
/// messages, and the mistakes they refuse.
@Suite struct MessageFramingParserTests {
    @Test func statementsParse() throws {
        let statements = try Fixtures.statements("""
            set framing length 2
            set framing length 4 little
            set framing lines
            set max-message 64KiB
            send message "hi" split at 1
            send message hex"00 01"
            expect message "hi"
            expect message hex"00 01"
            expect message /^h(?<rest>.)$/
            expect message contains "h"
            expect message any
            expect message bytes 2
            assert wire from peer messages unsplit
            assert wire from peer message "hi" in 1 segment
            send line "{rest}"
            """)
        let kinds = statements.map(\.kind)
        let framings: [MessageFraming] = kinds.compactMap { if case .set(.framing(let framing)) = $0 { return framing.literal } else { return nil } }
        #expect(framings == [.length(LengthHeader(width: 2)), .length(LengthHeader(width: 4, bigEndian: false)), .lines])
        guard case .set(.maxMessage(let size)) = kinds[3], case .send(let send) = kinds[4] else { Issue.record("\(kinds)"); return }
        #expect(size.literal == 65536)
        #expect(send.data == .message(Template(literal: "hi")) && send.splitOffsets.map(\.literal) == [1])
        #expect(kinds[7] == .expect(.message(.exact(Template(literal: [0, 1]))), within: nil))
        guard case .expect(.messageOfLength(let count), _) = kinds[11] else { Issue.record("\(kinds[11])"); return }
        #expect(count.literal == 2)
        guard case .assertWire(let unsplit) = kinds[12], case .assertWire(let inOne) = kinds[13] else { Issue.record("not wire"); return }
        #expect(unsplit.property == .messagesUnsplit)
        #expect(inOne.property == .messageInOneSegment(.exact(Template(literal: "hi"))))
    }

    @Test func mistakesAreExplained() {
        let cases: [(String, String)] = [
            ("set framing length 3", "a length header is 1, 2, 4 or 8 bytes, not '3'"),
            ("set framing words", "expected one of 'lines', 'length' after set framing"),
            ("set max-message 2GiB", "max-message takes 1 byte to 1GiB"),
            ("set max-message 0", "max-message takes 1 byte to 1GiB"),
            ("set framing length 2\nsend message \"abc\" split at 5", "split offset 5 is not inside the 5 bytes being sent"),
        ]
        for (text, message) in cases {
            let messages = Fixtures.load(text).diagnostics.map(\.message)
            #expect(messages.contains { $0.contains(message) }, "\(text): \(messages)")
        }
    }

    @Test func lengthHeadersEncodeAndDecodeBothOrders() {
        let big = LengthHeader(width: 2)
        #expect(big.encode(258) == [1, 2])
        #expect(big.decode([1, 2, 99]) == 258)
        #expect(big.encode(65536) == nil)
        let little = LengthHeader(width: 4, bigEndian: false)
        #expect(little.encode(258) == [2, 1, 0, 0])
        #expect(little.decode([2, 1, 0, 0]) == 258)
        let wide = LengthHeader(width: 8)
        #expect(wide.largest == .max)
        #expect(wide.decode([UInt8](repeating: 0xff, count: 8)) == .max)
        #expect(LengthHeader(width: 1).largest == 255)
    }
}
