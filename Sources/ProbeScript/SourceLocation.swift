/// A position in a scenario file: 1-based line and column (columns count Unicode scalars).
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and CI annotations understand.
    package var description: String { "\(file):\(line):\(column)" }

    /// `file:line`, for run-time messages that point at a step.
    package var fileAndLine: String { "\(file):\(line)" }

    /// The location `offset` columns further along the same line.
    package func advanced(by offset: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + offset)
    }
}
