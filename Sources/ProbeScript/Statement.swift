/// One statement of a scenario, with where it stands and the connection it is prefixed with.
public struct Statement: Sendable, Hashable {
    public var kind: StatementKind
    public var location: SourceLocation
    /// `a:` in `a: send line "x"`; `p` in `p.2:`.
    public var connection: Name?
    /// N of a `NAME.N:` prefix: `p.2:` names the second connection of proxy `p`.
    public var linkNumber: Int?
    /// The statement as written, for reports.
    public var text: String

    public init(kind: StatementKind, location: SourceLocation, connection: Name? = nil, linkNumber: Int? = nil, text: String) {
        self.kind = kind
        self.location = location
        self.connection = connection
        self.linkNumber = linkNumber
        self.text = text
    }

    /// The `NAME:` or `NAME.N:` prefix as written, without its colon.
    public var prefix: String? {
        connection.map { $0.text + (linkNumber.map { ".\($0)" } ?? "") }
    }

    /// The statement as written without its `NAME:` prefix: "delay 50ms downstream".
    public var step: Substring {
        connection == nil ? text[...] : text.split(separator: " ", maxSplits: 1).last ?? ""
    }

    /// The step's first word: its keyword.
    public var keyword: Substring {
        step.prefix { $0 != " " }
    }
}
