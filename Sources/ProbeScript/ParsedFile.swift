/// One file as parsed, before includes are spliced in and variables are checked.
public struct ParsedFile: Sendable {
    public var source: SourceFile
    public var title: Template?
    public var tags: [String]
    public var statements: [Statement]
    public var diagnostics: [Diagnostic]
}
