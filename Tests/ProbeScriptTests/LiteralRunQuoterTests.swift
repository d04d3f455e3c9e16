import Testing
@testable import ProbeScript

/// Quoting literal runs must never change what a pattern means: the rewrites below are checked
/// by hand, and thousands of generated patterns must compile, fail and match exactly as written.
@Suite struct LiteralRunQuoterTests {
    @Test(arguments: [
        (#"^Luke: hello (?<n1>\d+)$"#, #"^\QLuke: hello \E(?<n1>\d+)$"#),
        ("hello+", #"\Qhell\Eo+"#),
        ("hello{2}", #"\Qhell\Eo{2}"#),
        (#"hello\d"#, #"\Qhell\Eo\d"#),
        ("ab", "ab"),
        ("(?<name>abc)", #"(?<name>\Qabc\E)"#),
        ("(?'name'abc)", #"(?'name'\Qabc\E)"#),
        ("(?i:abcd)", #"(?i:\Qabcd\E)"#),
        ("[abcd]x{1000}", "[abcd]x{1000}"),
        ("[]abcd]", "[]abcd]"),
        ("[[:alpha:]]word", #"[[:alpha:]]\Qword\E"#),
        (#"\x41bcd"#, #"\x41bcd"#),
        (#"\p{Letter}abcd"#, #"\p{Letter}abcd"#),
        (#"\k<name>abcd"#, #"\k<name>abcd"#),
        (#"\d abcd"#, #"\d \Qabcd\E"#),
        ("cafe\u{301}", "\\Qcaf\\Ee\u{301}"),
        ("\u{600}abcd", "\u{600}a\\Qbcd\\E"),
        ("(?x) a b c d", "(?x) a b c d"),
        (#"\Qa.b\E cdef"#, #"\Qa.b\E cdef"#),
        ("(*positive_lookahead:abc)", "(*positive_lookahead:abc)"),
        ("(?#a comment)abcd", #"(?#a comment)\Qabcd\E"#),
    ])
    func rewrites(_ pattern: String, _ quoted: String) {
        #expect(LiteralRunQuoter.quotingLiteralRuns(in: pattern) == quoted)
    }

    /// Pieces of patterns, tricky ones among them: quantifiers, classes, groups and their names,
    /// escapes with arguments, combining and prepended marks, inline options.
    static let pieces = [
        "abc", "hello world", "Luke: ", "x", "é", "e\u{301}", "\u{301}", "\u{600}", #"\d+"#, #"\w"#, #"\s"#,
        #"\b"#, #"\x41"#, #"\u{301}"#, ".", "^", "$", "(?<g>ab)", "(?:cd|ef)", "[a-c]", "[]a]", "[^x]",
        "*", "+", "?", "{2}", "{1,3}", "(?i)", "(?s)", "|", "(", ")", #"\1"#, "(?=ab)", "(?<!b)", #"\p{L}"#,
        "ab12", "=:,;@", "\"'", #"\."#, #"\\"#, "-", "#", "A", "(?'n'xy)", #"\k<g>"#, "(?#note: abc)",
        "ABC", "ww", "/", "_~%&`!", "123", " ", "[[:alpha:]]", "[^abcd]", "[a-c&&b]", "{1000}", "{,2}",
        "(?<abcd>x)", #"\k'abcd'"#, "kelvin", "sky", "strasse",
    ]

    static let inputs = [
        "abc hello world", "Luke: 123", "ABC abc", "café", "cafe\u{301}", "xxAAA", "ab12=:,;@\"'",
        "aé", "cdef ab", "ww_~%&`!", "\u{600}abc", "abab cdcd", "x\ny", "hello worldhello world", "",
        "Luke: hello 42", "a.b-c#d/e", "abcabcabc", "e\u{301}\u{301}",
        // Case folding beyond ASCII: the Kelvin sign, the long s, sharp s.
        "\u{212A}elvin SKY \u{17F}ky stra\u{DF}e STRASSE",
    ]

    @Test func generatedPatternsMeanTheSameQuoted() throws {
        let count = Self.pieces.count
        var patterns: [String] = []
        for first in 0..<count {
            for second in 0..<count {
                patterns.append(Self.pieces[first] + Self.pieces[second])
                // A third and fourth piece picked by stepping through the list, not at random,
                // so every run checks the same patterns.
                let third = (first * 7 + second * 3) % count
                let fourth = (first * 5 + second * 11 + 1) % count
                patterns.append(Self.pieces[third] + Self.pieces[first] + Self.pieces[second] + Self.pieces[fourth])
            }
        }
        var quotedSome = 0
        for pattern in patterns {
            let quoted = LiteralRunQuoter.quotingLiteralRuns(in: pattern)
            guard quoted != pattern else { continue }
            quotedSome += 1
            let original = try? Regex(pattern)
            let rewritten = try? Regex(quoted)
            #expect((original == nil) == (rewritten == nil), "\(pattern) compiles differently as \(quoted)")
            guard let original, let rewritten else { continue }
            for variant in 0..<3 {
                let (left, right) = variant == 0 ? (original, rewritten)
                    : variant == 1 ? (original.ignoresCase(), rewritten.ignoresCase())
                    : (original.dotMatchesNewlines(), rewritten.dotMatchesNewlines())
                for input in Self.inputs {
                    #expect(Self.describe(input.firstMatch(of: left), in: input) == Self.describe(input.firstMatch(of: right), in: input),
                            "\(pattern) and \(quoted) match \(input.debugDescription) differently (variant \(variant))")
                }
            }
        }
        #expect(quotedSome > 1_000)
    }

    /// A match as its position and every group's text, comparable across two regexes.
    static func describe(_ match: Regex<AnyRegexOutput>.Match?, in input: String) -> String {
        guard let match else { return "no match" }
        let start = input.distance(from: input.startIndex, to: match.range.lowerBound)
        let groups = match.output.map { $0.substring.map(String.init) ?? "-" }
        return "\(start): \(groups)"
    }
}
