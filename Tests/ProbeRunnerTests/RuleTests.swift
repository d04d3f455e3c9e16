import Testing

/// Background rules (`on …`) between the probe's own client `c` and server `s`: what a rule
/// takes never reaches an expect, wherever it stands in what is unread; rules answer while the
/// scenario sleeps; heartbeats go out every so often; `on off` ends them; the log counts.
@Suite struct RuleTests {
    static let pair = MessageFramingTests.pair

    @Test func aRuleAnswersWhatItTakesAndExpectsNeverSeeIt() async throws {
        let result = try await ScenarioHarness.run(Self.pair + """
            s: send line "PING early"
            s: send line "hello"
            sleep 50ms
            c: on line /^PING (?<token>.*)$/ send line "PONG {token}"
            c: on line "noise"
            s: send line "noise"
            s: send line "PING 2"
            sleep 100ms
            s: expect line "PONG early"
            s: expect line "PONG 2"
            c: expect line "hello"
            c: expect nothing for 50ms
            """)
        result.expectPassed()
        let log = result.log.map(\.message)
        #expect(log.contains(#"connection 'c': rule `c: on line /^PING (?<token>.*)$/ send line "PONG {token}"`: 2 lines consumed, 2 answered"#), "\(log)")
        #expect(log.contains(#"connection 'c': rule `c: on line "noise"`: 1 line consumed"#), "\(log)")
    }

    /// Rules are tried in the order written: the first that matches takes the line, whatever
    /// a later one would have matched. Two overlapping rules, in both orders, over three lines.
    @Test(arguments: [(["/^x/ send line \"A\"", "/^xy/ send line \"B\""], ["A", "A", "A"]),
                      (["/^xy/ send line \"B\"", "/^x/ send line \"A\""], ["B", "A", "B"]),
                      (["\"xq\" send line \"Q\"", "/^x/ send line \"A\""], ["A", "Q", "A"])])
    func theFirstRuleWrittenThatMatchesTakesTheLine(_ rules: [String], _ answers: [String]) async throws {
        let result = try await ScenarioHarness.run(Self.pair + rules.map { "c: on line \($0)\n" }.joined() + """
            s: send line "xyz"
            s: send line "xq"
            s: send line "xy"

            """ + answers.map { "s: expect line \"\($0)\"\n" }.joined() + "s: expect nothing for 50ms\n")
        result.expectPassed()
    }

    @Test func heartbeatsGoOutUntilOnOff() async throws {
        let result = try await ScenarioHarness.run(Self.pair + """
            c: on every 40ms send line "beat"
            sleep 130ms
            s: expect line "beat"
            s: expect line "beat"
            s: expect line "beat"
            c: on off
            s: expect nothing for 100ms
            """)
        result.expectPassed()
        #expect(result.log.contains { $0.message == #"connection 'c': `c: on every 40ms send line "beat"`: 3 sent"# }, "\(result.log.map(\.message))")
    }

    /// Under a framing with a head (MQTT's PINGREQ c0 00, answered by PINGRESP d0 00), a rule
    /// takes the messages with its head and leaves the others.
    @Test func aMessageRuleTakesByHead() async throws {
        let result = try await ScenarioHarness.run(Self.pair + """
            set framing varint after 1
            c: on message head hex"c0" any send message head hex"d0" ""
            s: send hex"c0 00 30 02 00 07 c0 00"
            s: expect hex"d0 00 d0 00"
            c: expect message head hex"30" hex"00 07"
            """)
        result.expectPassed()
    }

    @Test func aWebSocketConnectionTakesNoRules() async throws {
        let result = try await ScenarioHarness.run(WebSocketTests.upgradedByHand + #"s: on line "ping" send line "pong""#)
        result.expectFailure(line: 7, containing: "connection 's' is a WebSocket connection: it answers pings by set websocket auto-pong")
    }

    @Test func aHeartbeatOfNoIntervalIsAnError() async throws {
        let zero = try await ScenarioHarness.run(Self.pair + #"c: on every 0 send line "y""#)
        zero.expectFailure(line: 5, containing: "a heartbeat's interval must be more than 0")
    }
}
