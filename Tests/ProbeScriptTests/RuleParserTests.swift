import Testing
@testable import ProbeScript

/// `on line|message … [send …]`, `on every D send …` and `on off`, and what they refuse.
@Suite struct RuleParserTests {
    @Test func everyFormParses() throws {
        let kinds = try Fixtures.statements("""
            on line /^PING (?<token>.*)$/ send line "PONG {token}"
            on message head hex"c0" any send message head hex"d0" ""
            on every 30s send line "ping"
            on line "pong"
            on off
            """).map(\.kind)
        guard case .on(.reading(.line(.regex(let regex)), let pong?)) = kinds[0] else { Issue.record("\(kinds[0])"); return }
        #expect(regex.groupNames == ["token"])
        guard case .line(let text) = pong.data else { Issue.record("\(pong.data)"); return }
        #expect(text.variables.map(\.name) == ["token"])
        guard case .on(.reading(.message(.any, let head?), let answer?)) = kinds[1], case .message(_, let answerHead?) = answer.data else {
            Issue.record("\(kinds[1])"); return
        }
        #expect(head.literalBytes == [0xc0] && answerHead.literalBytes == [0xd0])
        guard case .on(.every(let interval, _)) = kinds[2] else { Issue.record("\(kinds[2])"); return }
        #expect(interval.literal == .seconds(30))
        #expect(kinds[3] == .on(.reading(.line(.exact(Template(literal: "pong"))), answer: nil)))
        #expect(kinds[4] == .on(.off))
    }

    @Test func mistakesAreExplained() {
        let cases: [(String, String)] = [
            (#"on line "x" send line "y" split at 1"#, "a rule's send takes no modifiers"),
            (#"on line "x" send random 4"#, "a rule sends a line, a message or bytes"),
            (#"on every 1s"#, "expected 'send' after on every D"),
            (#"on lines "x""#, "expected one of 'line', 'message', 'every', 'off' after on"),
            (#"on line /^(?<a>x)$/ send line "{b}""#, "unknown variable 'b'"),
        ]
        for (text, message) in cases {
            let messages = Fixtures.load(text).diagnostics.map(\.message)
            #expect(messages.contains { $0.contains(message) }, "\(text): \(messages)")
        }
    }
}
