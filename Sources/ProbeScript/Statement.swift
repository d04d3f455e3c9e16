/// One statement of a scenario, with where it stands and the connection it is prefixed with.
public struct Statement: Sendable, Hashable {
    public var kind: StatementKind
    public var location: SourceLocation
    /// `a:` in `a: send line "x"`.
    public var connection: Name?
    /// The statement as written, for reports.
    public var text: String

    public init(kind: StatementKind, location: SourceLocation, connection: Name? = nil, text: String) {
        self.kind = kind
        self.location = location
        self.connection = connection
        self.text = text
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
