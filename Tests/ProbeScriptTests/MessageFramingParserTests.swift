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
            set framing length 4 after 1 adjust -4
            set framing varint after 1
            set framing length 3 little adjust +2
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
        let all = statements.map(\.kind)
        let framings: [MessageFraming] = all.compactMap { if case .set(.framing(let framing)) = $0 { return framing.literal } else { return nil } }
        #expect(framings == [.length(LengthHeader(width: 2)), .length(LengthHeader(width: 4, bigEndian: false)), .lines,
                             .length(LengthHeader(width: 4, after: 1, adjust: -4)), .length(LengthHeader(field: .varint, after: 1)),
                             .length(LengthHeader(width: 3, bigEndian: false, adjust: 2))])
        let kinds = Array(all[3...])  // the other statements, as before the three new framings
        guard case .set(.maxMessage(let size)) = kinds[3], case .send(let send) = kinds[4] else { Issue.record("\(kinds)"); return }
        #expect(size.literal == 65536)
        #expect(send.data == .message(Template(literal: "hi")) && send.splitOffsets.map(\.literal) == [1])
        #expect(kinds[7] == .expect(.message(.exact(Template(literal: [0, 1]))), within: nil))
        guard case .expect(.messageOfLength(let count, nil), _) = kinds[11] else { Issue.record("\(kinds[11])"); return }
        #expect(count.literal == 2)
        guard case .assertWire(let unsplit) = kinds[12], case .assertWire(let inOne) = kinds[13] else { Issue.record("not wire"); return }
        #expect(unsplit.property == .messagesUnsplit)
        #expect(inOne.property == .messageInOneSegment(.exact(Template(literal: "hi"))))
    }

    @Test func aMessagesHeadParsesOnSendAndEveryExpectForm() throws {
        let statements = try Fixtures.statements("""
            set framing length 4 after 1 adjust -4
            send message head "Q" "SELECT 1"
            expect message head "Z" bytes 1
            expect message head hex"??" any
            expect message head "T" hex"00 01"
            expect message head "C" /^SELECT (?<rows>\\d+)$/
            """)
        let kinds = statements.map(\.kind)
        guard case .send(let send) = kinds[1] else { Issue.record("\(kinds[1])"); return }
        #expect(send.data == .message(Template(literal: "SELECT 1"), head: Template(literal: "Q")))
        guard case .expect(.messageOfLength(let count, let head), _) = kinds[2] else { Issue.record("\(kinds[2])"); return }
        #expect(count.literal == 1 && head == Template(literal: "Z"))
        guard case .expect(.message(.any, let any?), _) = kinds[3] else { Issue.record("\(kinds[3])"); return }
        #expect(any.anyBytes.count == 1)
        #expect(kinds[4] == .expect(.message(.exact(Template(literal: [0, 1])), head: Template(literal: "T")), within: nil))
        guard case .expect(.message(.regex, _?), _) = kinds[5] else { Issue.record("\(kinds[5])"); return }
    }

    @Test func mistakesAreExplained() {
        let cases: [(String, String)] = [
            ("set framing length 5", "a length field is 1, 2, 3, 4 or 8 bytes, not '5'"),
            ("set framing words", "expected one of 'lines', 'length', 'varint' after set framing"),
            ("set framing varint little", "a varint has no byte order"),
            ("set framing varint adjust -1", "a varint length is not adjusted"),
            ("set framing length 2 after 65", "at most 64 head bytes come before a length field"),
            ("set framing length 2 adjust four", "'four' is not a signed whole number such as -4"),
            ("set framing length 2 sideways", "expected one of 'big', 'little', 'after', 'adjust'"),
            ("send message head \"Q\" \"x\"", "a message has a head only under set framing length|varint … after N"),
            ("set framing length 4 after 1\nexpect message head \"QQ\" any", "the head is 2 bytes, and a 4-byte big-endian length after 1 head byte takes 1"),
            ("set framing varint after 1\nsend message head hex\"??\" \"x\"", "?? (any byte) is only for expected bytes, not the message's head"),
            ("set max-message 2GiB", "max-message takes 1 byte to 1GiB"),
            ("set max-message 0", "max-message takes 1 byte to 1GiB"),
            ("set framing length 2\nsend message \"abc\" split at 5", "split offset 5 is not inside the 5 bytes being sent"),
        ]
        for (text, message) in cases {
            let messages = Fixtures.load(text).diagnostics.map(\.message)
            #expect(messages.contains { $0.contains(message) }, "\(text): \(messages)")
        }
    }

}
