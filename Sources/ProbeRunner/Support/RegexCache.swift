import ProbeScript

/// The regexes a run has compiled, by pattern with its variables filled in: an `expect` in a
/// loop would otherwise parse its regex again on every pass (Swift's regex parser is slow: a
/// short pattern costs more than the rest of a round trip, bench/HISTORY.md 1) and lower it
/// again on its first match. Bounded: past `capacity` patterns (variables that change every
/// pass) it starts over. A run and the copies of its `parallel` blocks share one (all on the
/// run's loop): ten thousand copies compile their regex once.
final class RegexCache {
    static let capacity = 64

    private struct Key: Hashable {
        var pattern: String
        /// As written, which the compiled regex's messages show.
        var written: String
        var ignoresCase: Bool
        var dotMatchesNewlines: Bool
    }

    private var compiled: [Key: CompiledRegex] = [:]

    var count: Int { compiled.count }

    /// `literal` compiled with `lookup`'s values; throws the engine's message when invalid.
    func regex(_ literal: RegexLiteral, _ lookup: (String) -> String?) throws -> CompiledRegex {
        let pattern = literal.expandedPattern(lookup)
        let key = Key(pattern: pattern, written: literal.pattern, ignoresCase: literal.ignoresCase, dotMatchesNewlines: literal.dotMatchesNewlines)
        if let regex = compiled[key] { return regex }
        let regex = CompiledRegex(try literal.compile(expandedPattern: pattern), literal)
        if compiled.count >= Self.capacity { compiled.removeAll(keepingCapacity: true) }
        compiled[key] = regex
        return regex
    }
}
