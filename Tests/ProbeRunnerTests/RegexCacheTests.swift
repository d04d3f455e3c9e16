import ProbeScript
import Testing
@testable import ProbeRunner

/// An expect in a loop compiles its regex once; the cache stays bounded and keeps nothing when
/// switched off (copies of a parallel block).
@Suite struct RegexCacheTests {
    static let here = SourceLocation(file: "t.scn", line: 1, column: 1)

    @Test func aPatternIsCompiledOnceAndEachFillingOfItsVariablesApart() throws {
        let cache = RegexCache()
        let literal = RegexLiteral(pattern: #"^ping {n} \d+$"#, location: Self.here)
        var values = ["n": "a.b"]
        for _ in 0..<3 {
            let regex = try cache.regex(literal, { values[$0] }).regex
            #expect("ping a.b 12".wholeMatch(of: regex) != nil)
            #expect("ping axb 12".wholeMatch(of: regex) == nil, "the variable's value is matched literally")
        }
        #expect(cache.count == 1)
        values["n"] = "c"
        #expect(try "ping c 7".wholeMatch(of: cache.regex(literal, { values[$0] }).regex) != nil)
        #expect(cache.count == 2)
        let ignoringCase = RegexLiteral(pattern: #"^ping {n} \d+$"#, ignoresCase: true, location: Self.here)
        #expect(try "PING c 7".wholeMatch(of: cache.regex(ignoringCase, { values[$0] }).regex) != nil)
        #expect(cache.count == 3, "the flags are part of the key")
    }

    /// Two patterns written apart that fill in alike each keep their own, for the messages that show it.
    @Test func aCompiledRegexShowsThePatternAsItsStatementWroteIt() throws {
        let cache = RegexCache()
        let variable = try cache.regex(RegexLiteral(pattern: "^{n}$", location: Self.here), { _ in "ping" })
        let written = try cache.regex(RegexLiteral(pattern: "^ping$", location: Self.here), { _ in nil })
        #expect(variable.literal.description == "/^{n}$/")
        #expect(written.literal.description == "/^ping$/")
        #expect(cache.count == 2)
        let named = try cache.regex(RegexLiteral(pattern: #"^(?<who>\w+) (?<what>.*)$"#, location: Self.here), { _ in nil })
        #expect(named.groups == ["who", "what"])
    }

    @Test func theCacheIsBounded() throws {
        let cache = RegexCache()
        let literal = RegexLiteral(pattern: "^{i}$", location: Self.here)
        for i in 0..<(RegexCache.capacity * 3) {
            #expect(try "\(i)".wholeMatch(of: cache.regex(literal, { _ in String(i) }).regex) != nil)
            #expect(cache.count <= RegexCache.capacity)
        }
        #expect(throws: (any Error).self) { try cache.regex(RegexLiteral(pattern: "(a", location: Self.here), { _ in nil }) }
    }
}
