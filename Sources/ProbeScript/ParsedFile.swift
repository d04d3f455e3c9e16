/// One file as parsed, before includes are spliced in and variables are checked.
package struct ParsedFile: Sendable {
    package var source: SourceFile
    package var title: Template?
    package var tags: [String]
    package var statements: [Statement]
    package var diagnostics: [Diagnostic]
}
