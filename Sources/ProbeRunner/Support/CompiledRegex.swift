import ProbeScript

/// A regex compiled with its variables filled in, beside the literal it came from and the names
/// of its groups. A class: the rules that hold one then copy as a reference, where a `Regex` (a
/// type of the standard library's, opaque to this module) makes every copy of a rule a call
/// into the runtime, on every round trip.
/// Sendable: immutable: every property is a let (a `Regex` of `AnyRegexOutput` is not Sendable, so
/// the compiler cannot see it).
final class CompiledRegex: @unchecked Sendable {
    let regex: Regex<AnyRegexOutput>
    /// The same regex matching by Unicode scalar, as `expect until /RE/` reads bytes: made
    /// once, so its program is lowered once, not at every read.
    let scalarRegex: Regex<AnyRegexOutput>
    let literal: RegexLiteral
    /// The `(?<name>…)` groups, whose matches set variables.
    let groups: [String]

    init(_ regex: Regex<AnyRegexOutput>, _ literal: RegexLiteral) {
        self.regex = regex
        self.scalarRegex = regex.matchingSemantics(.unicodeScalar)
        self.literal = literal
        self.groups = literal.groupNames
    }
}
