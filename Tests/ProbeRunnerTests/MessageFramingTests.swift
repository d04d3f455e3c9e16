import Foundation
import Testing

/// Length-prefixed messages (`set framing length`), between the probe's own client and
/// server: every `expect message` form passing and failing, the encoded bytes under send
/// modifiers, and hostile peers, each a bounded failure.
@Suite struct MessageFramingTests {
    /// The probe's own client `c` and server `s`, connected (four lines).
    static let pair = """
        set timeout 2s
        listen l 127.0.0.1:0
        connect c 127.0.0.1:{l.port}
        accept s on l

        """

    /// The header's width and byte order from a variable, resolved and checked when the step runs.
    @Test func theWidthMayBeAVariable() async throws {
        let result = try await ScenarioHarness.run(Self.pair + """
            set framing length {w} little
            c: send message "hi"
            s: expect hex"02 00 00 00 68 69"
            """, variables: ["w": "4"])
        result.expectPassed()
        let wrong = try await ScenarioHarness.run(Self.pair + "set framing length {w}", variables: ["w": "5"])
        wrong.expectFailure(line: 5, containing: "a length field is 1, 2, 3, 4 or 8 bytes, not 5")
        let head = try await ScenarioHarness.run(Self.pair + "set framing length 2 after {n} adjust {k}", variables: ["n": "65", "k": "-1"])
        head.expectFailure(line: 5, containing: "at most 64 head bytes come before a length field, not 65")
        let adjust = try await ScenarioHarness.run(Self.pair + "set framing length 2 adjust {k}", variables: ["k": "minus"])
        adjust.expectFailure(line: 5, containing: "minus")
    }

    /// Head bytes before the length field, a length that counts itself, and varints: what the
    /// probe sends and what it reads, as PostgreSQL, MQTT and protobuf frame them.
    @Test func lengthFieldsAfterAHeadAdjustedAndVarint() async throws {
        let result = try await ScenarioHarness.run(Self.pair + """
            set framing length 4 after 1 adjust -4
            c: send message "SELECT 1"
            s: expect hex"00 00 00 00 0c 53 45 4c 45 43 54 20 31"
            s: send hex"5a 00 00 00 05 49"
            c: expect message "I"
            set framing varint after 1
            c: send message "{payload}"
            s: expect bytes 3 = hex"00 c8 01"
            s: expect bytes 200
            s: send hex"d0 00 30 02 00 07"
            c: expect message bytes 0
            c: expect message hex"00 07"
            set framing varint
            set framing length 3 little
            s: send hex"02 00 00 68 69"
            c: expect message "hi"
            """, variables: ["payload": String(repeating: "x", count: 200)])
        result.expectPassed()
        // A binary message is shown apart: its head, its length field, its payload.
        #expect(result.log.contains { $0.message.hasSuffix("got message head 30 · length 02 (varint) · payload 00 07 after " + $0.message.components(separatedBy: " after ").last!) },
                "\(result.log.map(\.message))")
        #expect(result.log.contains { $0.message.contains(#"got message "hi""#) }, "a text message reads as text")
        let wrong = try await ScenarioHarness.run(Self.pair + """
            set framing varint after 1
            s: send hex"30 02 00 07"
            c: expect message hex"00 08"
            """)
        wrong.expectFailure(line: 7, containing: "(received: head 30 · length 02 (varint) · payload 00 07)")
    }

    /// A message's head: written by `send message head`, judged by `expect message head`, and
    /// a head that differs fails naming it (PostgreSQL's ErrorResponse where ReadyForQuery was
    /// awaited).
    @Test func aMessagesHeadIsSentAndJudged() async throws {
        let steps = Self.pair + """
            set framing length 4 after 1 adjust -4
            c: send message head "Q" "SELECT 1\\0"
            s: expect hex"51 00 00 00 0d 53 45 4c 45 43 54 20 31 00"
            s: send message head "Z" "I"
            c: expect message head "Z" bytes 1
            s: send message head "E" "oops"

            """
        let result = try await ScenarioHarness.run(steps + "c: expect message head \"E\" /^o/")
        result.expectPassed()
        let other = try await ScenarioHarness.run(steps + "c: expect message head \"Z\" any")
        other.expectFailure(line: 11, containing: #"expected a message with head "Z", received a message with head hex"45": "oops""#)
        let lines = try await ScenarioHarness.run(Self.pair + "var h = \"Q\"\nc: send message head \"{h}\" \"x\"")
        lines.expectFailure(line: 6, containing: "a message has a head under set framing length|varint … after N, not under lines")
    }

    @Test func everyExpectFormPasses() async throws {
        let result = try await ScenarioHarness.run(Self.pair + #"""
            set framing length 2
            c: send message "hello"
            s: expect message "hello"
            s: send message hex"00 01 02"
            c: expect message hex"00 01 02"
            s: send message "three"
            c: expect message bytes 5
            c: send message "split me" split at 1
            s: expect message /^split (?<what>\w+)$/
            s: send message "{what}" in chunks of 1
            c: expect message contains "m"
            c: send message ""
            s: expect message any
            set framing length 8 little
            c: send message "le"
            s: expect "\x02\0\0\0\0\0\0\0le"
            set framing lines
            c: send message "a line"
            s: expect line "a line"
            """#)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains(#"sent 10 bytes hex"00 08 73 70 6c 69 74 20 6d 65" in 2 writes"#)
            && $0.message.hasSuffix("one message: a 2-byte big-endian length and 8 bytes") }, "\(result.log.map(\.message))")
        #expect(result.log.contains { $0.message.contains(#"got message "split me""#) && $0.message.contains(#"{what}="me""#) })
    }

    @Test(arguments: [
        (#"expect message "hellO""#, #"expected message: "hellO""#),
        ("expect message /^bye/", "expected a message matching /^bye/\n received message: \"hello\""),
        (#"expect message contains "x""#, #"expected a message containing "x""#),
        ("expect message bytes 4", #"expected a message of 4 bytes, received one of 5: "hello""#),
    ]) func eachExpectFormFailsThroughTheMessage(expectation: String, message: String) async throws {
        let result = try await ScenarioHarness.run(Self.pair + """
            set framing length 2
            s: send message "hello"
            c: \(expectation)
            """)
        result.expectFailure(line: 7, containing: message)
    }

    /// A header over max-message fails as it arrives, and announcing 4 GiB, or more than
    /// Int.max in 8 bytes, allocates nothing and traps nowhere; half a header then FIN, and a
    /// header whose payload never comes, each end in a failure that says so.
    @Test(.timed) func hostilePeersAreBoundedFailures() async throws {
        let cases: [(framing: String, sent: String, failure: String)] = [
            ("length 4", #"s: send hex"ff ff ff ff""#, #"the length header hex"ff ff ff ff" announces 4294967295 bytes, over max-message 1048576"#),
            ("length 8", #"s: send hex"ff ff ff ff ff ff ff ff""#, "announces 18446744073709551615 bytes, over max-message 1048576"),
            ("length 2", "s: send hex\"00\"\ns: shutdown write", "the peer closed the connection (FIN) after 1 of the 2 bytes of a length header"),
            ("length 2", "s: send hex\"00 05 68\"\ns: shutdown write", "the peer closed the connection (FIN) after 1 of the 5 bytes the length header announced"),
            ("length 2", #"s: send hex"00 05""#, "timed out after 300ms waiting for a message; a length header announced 5 bytes and 0 have arrived"),
            ("varint after 1", #"s: send hex"30 ff ff ff ff""#, #"a varint length longer than 4 bytes: hex"30 ff ff ff ff""#),
            ("varint", #"s: send hex"ff ff ff ff ff ff ff ff ff 7f""#, "announces 18446744073709551615 bytes, over max-message 1048576"),
            ("length 4 after 1 adjust -4", #"s: send hex"5a 00 00 00 02""#, #"the length field hex"00 00 00 02" holds 2, below zero after adjust -4"#),
            ("varint after 1", "s: send hex\"30 85\"\ns: shutdown write",
             #"the peer closed the connection (FIN) after 2 bytes of an unfinished length header (a varint length after 1 head byte): hex"30 85""#),
        ]
        for (framing, sent, failure) in cases {
            let started = ContinuousClock.now
            let result = try await ScenarioHarness.run(Self.pair + """
                set framing \(framing)
                \(sent)
                c: expect message any within 300ms
                """)
            let line = sent.contains("\n") ? 8 : 7
            result.expectFailure(line: line, containing: failure)
            #expect(ContinuousClock.now - started < .seconds(3))
        }
        let small = try await ScenarioHarness.run(Self.pair + """
            set framing length 2
            set max-message 4
            s: send message "hello"
            c: expect message any
            """)
        small.expectFailure(line: 8, containing: "announces 5 bytes, over max-message 4")
        let tooLong = try await ScenarioHarness.run(Self.pair + """
            set framing length 1
            c: send message "\(String(repeating: "x", count: 256))"
            """)
        tooLong.expectFailure(line: 6, containing: "a 256-byte message does not fit a 1-byte big-endian length (at most 255 bytes)")
        // A length field that would go below zero is no message too long: it says so.
        let tooShort = try await ScenarioHarness.run(Self.pair + """
            set framing length 2 adjust 4
            c: send message "ab"
            """)
        tooShort.expectFailure(line: 6, containing: "a 2-byte message is shorter than `adjust 4` takes off: its length field would be -2, below zero")
    }

    /// The edge of `max-message` under every width and byte order: a message of exactly
    /// max-message bytes passes, one byte more fails as its header arrives.
    @Test(arguments: ["length 1", "length 2", "length 2 little", "length 4", "length 4 little", "length 8", "length 8 little"])
    func maxMessageIsInclusive(framing: String) async throws {
        let at = try await ScenarioHarness.run(Self.pair + """
            set framing \(framing)
            set max-message 5
            s: send message "12345"
            c: expect message "12345"
            """)
        at.expectPassed()
        let over = try await ScenarioHarness.run(Self.pair + """
            set framing \(framing)
            set max-message 5
            s: send message "123456"
            c: expect message any
            """)
        over.expectFailure(line: 8, containing: "announces 6 bytes, over max-message 5")
    }

    /// Little-endian headers read from what a peer sent, not only encoded by the probe.
    @Test func littleEndianHeadersFromAPeerAreRead() async throws {
        let result = try await ScenarioHarness.run(Self.pair + """
            set framing length 2 little
            s: send hex"05 00 68 65 6c 6c 6f 00 01 2e"
            c: expect message "hello"
            c: expect message bytes 256 within 100ms
            """)
        result.expectFailure(line: 8, containing: "a length header announced 256 bytes and 1 have arrived")
        let four = try await ScenarioHarness.run(Self.pair + """
            set framing length 4 little
            s: send hex"02 00 00 00 68 69"
            c: expect message "hi"
            """)
        four.expectPassed()
    }
}
