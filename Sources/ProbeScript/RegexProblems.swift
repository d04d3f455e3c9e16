/// The regexes of one file's tokens, checked before it is parsed: each distinct pattern once,
/// and all of them on every core at once when there are enough to pay for the threads. Swift's
/// regex parser is most of what checking a file costs (tens of µs a pattern), and the parser
/// itself is sequential.
struct RegexProblems {
    /// From this many distinct patterns on, they compile in parallel.
    static let parallelFrom = 16

    /// The engine's complaint about each invalid regex token, by the token's index.
    private let byToken: [Int: String]

    init(_ tokens: [Token]) {
        var patternIndex: [String: Int] = [:]
        var patterns: [RegexLiteral] = []
        var tokenPatterns: [(token: Int, pattern: Int)] = []
        for (index, token) in tokens.enumerated() {
            guard case .regex(let literal) = token.kind else { continue }
            // The description holds the pattern and its flags, all that compiling depends on.
            let key = literal.description
            let pattern = patternIndex[key] ?? {
                patterns.append(literal)
                patternIndex[key] = patterns.count - 1
                return patterns.count - 1
            }()
            tokenPatterns.append((index, pattern))
        }
        let problems = RegexProblems.compileErrors(of: patterns)
        var byToken: [Int: String] = [:]
        for (token, pattern) in tokenPatterns {
            if let problem = problems[pattern] { byToken[token] = problem }
        }
        self.byToken = byToken
    }

    /// Why the regex at token `index` does not compile, or nil when it does.
    func problem(atToken index: Int) -> String? { byToken[index] }

    private static func compileErrors(of patterns: [RegexLiteral]) -> [String?] {
        patterns.concurrentMap(from: parallelFrom) { $0.compileError }
    }
}
