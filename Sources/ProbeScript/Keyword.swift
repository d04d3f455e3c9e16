/// A closed list of words the parser takes at one place of a statement, spelt by its raw
/// values. The parser switches over the cases with no `default:`, so a word added to a list
/// without its parse is a compile error, not a word parsed as another.
protocol Keyword: RawRepresentable, CaseIterable where RawValue == String {}

extension Keyword {
    /// The spellings, in the order errors and `tcpprobe grammar` show them.
    static var spellings: [String] { allCases.map(\.rawValue) }
}

extension Parser {
    /// Consumes one of `K`'s words; otherwise fails with the list and a did-you-mean.
    mutating func keyword<K: Keyword>(_: K.Type, after context: String) throws -> K {
        K(rawValue: try keyword(K.spellings, after: context))!
    }
}
