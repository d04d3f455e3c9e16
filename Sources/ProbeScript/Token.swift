/// One lexical unit of a scenario line.
package struct Token: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// A bare word: keyword, name, number, duration, address; may hold `{name}`.
        case word(String)
        case string(Template)
        case hex(Template)
        case regex(RegexLiteral)
        case comma
        case semicolon
        case openBrace
        case closeBrace
        case newline
        case end
    }

    package var kind: Kind
    package var location: SourceLocation
    /// Length in columns, for carets.
    package var length: Int
    /// True when no white space separates this token from the previous one.
    package var isAdjacent: Bool

    package var word: String? {
        if case .word(let text) = kind { return text }
        return nil
    }

    /// How the token reads in an error message.
    package var display: String {
        switch kind {
        case .word(let text): return "'\(text)'"
        case .string: return "a string"
        case .hex: return "a hex string"
        case .regex: return "a regex"
        case .comma: return "','"
        case .semicolon: return "';'"
        case .openBrace: return "'{'"
        case .closeBrace: return "'}'"
        case .newline, .end: return "the end of the line"
        }
    }

    package var endsStatement: Bool {
        switch kind {
        case .newline, .end, .semicolon, .closeBrace: return true
        default: return false
        }
    }
}
