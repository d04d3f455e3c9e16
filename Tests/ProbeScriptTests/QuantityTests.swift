import Testing
import ProbeScript

@Suite struct QuantityTests {
    @Test func durations() {
        #expect(Quantity.duration("500us") == .microseconds(500))
        #expect(Quantity.duration("250ms") == .milliseconds(250))
        #expect(Quantity.duration("2s") == .seconds(2))
        #expect(Quantity.duration("1.5s") == .milliseconds(1500))
        #expect(Quantity.duration("1m") == .seconds(60))
        for bad in ["", "5", "5sec", "1.5.s", ".5s", "s", "-1s", "1e9h"] {
            #expect(Quantity.duration(bad) == nil, "\(bad) should be rejected")
        }
    }

    @Test func sizesAndRates() {
        #expect(Quantity.size("512") == 512)
        #expect(Quantity.size("4KiB") == 4096)
        #expect(Quantity.size("1MiB") == 1_048_576)
        #expect(Quantity.size("1.5KiB") == 1536)
        #expect(Quantity.size("4KB") == 4000)
        #expect(Quantity.size("0.3B") == nil)
        #expect(Quantity.size("4QiB") == nil)
        #expect(Quantity.rate("10KiB/s") == 10240)
        #expect(Quantity.rate("10KiB") == nil)
        #expect(Quantity.rate("0/s") == nil)
    }

    @Test func addresses() {
        #expect(Address.parse("127.0.0.1:80") == Address(host: "127.0.0.1", port: 80))
        #expect(Address.parse("[::1]:7000") == Address(host: "::1", port: 7000))
        #expect(Address.parse("localhost:0") == Address(host: "localhost", port: 0))
        for bad in ["localhost", "::1:80", "[::1]", "h:70000", ":80", "h:x"] {
            #expect(Address.parse(bad) == nil, "\(bad) should be rejected")
        }
    }

    @Test func suggestionsFindTyposButNotStrangers() {
        #expect(Suggestion.closest(to: "sned", in: Grammar.statementKeywords) == "send")
        #expect(Suggestion.closest(to: "expcet", in: Grammar.statementKeywords) == "expect")
        #expect(Suggestion.closest(to: "zebra", in: Grammar.statementKeywords) == nil)
    }
}
