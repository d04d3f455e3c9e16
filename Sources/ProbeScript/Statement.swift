/// One statement of a scenario, with where it stands and the connection it is prefixed with.
package struct Statement: Sendable, Hashable {
    package var kind: StatementKind
    package var location: SourceLocation
    /// `a:` in `a: send line "x"`; `p` in `p.2:`.
    package var connection: Name?
    /// N of a `NAME.N:` prefix: `p.2:` names the second connection of proxy `p`.
    package var linkNumber: Int?
    /// The statement as written, for reports.
    package var text: String

    package init(kind: StatementKind, location: SourceLocation, connection: Name? = nil, linkNumber: Int? = nil, text: String) {
        self.kind = kind
        self.location = location
        self.connection = connection
        self.linkNumber = linkNumber
        self.text = text
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
