/// One statement of a scenario, with where it stands and the connection it is prefixed with.
/// Immutable and held by reference: the runner hands a statement from step to step, log entry
/// and failure, and a copy is one retain rather than one for each of its strings and payloads
/// (issue 64). Equal when all it holds is equal, as a value would be.
package final class Statement: Sendable, Hashable {
    package let kind: StatementKind
    package let location: SourceLocation
    /// `a:` in `a: send line "x"`; `p` in `p.2:`.
    package let connection: Name?
    /// N of a `NAME.N:` prefix: `p.2:` names the second connection of proxy `p`.
    package let linkNumber: Int?
    /// The statement as written, for reports.
    package let text: String

    package init(kind: StatementKind, location: SourceLocation, connection: Name? = nil, linkNumber: Int? = nil, text: String) {
        self.kind = kind
        self.location = location
        self.connection = connection
        self.linkNumber = linkNumber
        self.text = text
    }

    /// The same statement doing `kind` instead: a block with its body rewritten, a fault resolved.
    package func with(kind: StatementKind) -> Statement {
        Statement(kind: kind, location: location, connection: connection, linkNumber: linkNumber, text: text)
    }

    package static func == (lhs: Statement, rhs: Statement) -> Bool {
        lhs === rhs || (lhs.kind == rhs.kind && lhs.location == rhs.location && lhs.connection == rhs.connection
            && lhs.linkNumber == rhs.linkNumber && lhs.text == rhs.text)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(location)
        hasher.combine(connection)
        hasher.combine(linkNumber)
        hasher.combine(text)
    }

    /// The `NAME:` or `NAME.N:` prefix as written, without its colon.
    package var prefix: String? {
        connection.map { $0.text + (linkNumber.map { ".\($0)" } ?? "") }
    }

    /// The statement as written without its `NAME:` prefix: "delay 50ms downstream".
    package var step: Substring {
        connection == nil ? text[...] : text.split(separator: " ", maxSplits: 1).last ?? ""
    }

    /// The step's first word: its keyword.
    package var keyword: Substring {
        step.prefix { $0 != " " }
    }
}
