/// A position in a scenario file: 1-based line and column (columns count Unicode scalars).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and CI annotations understand.
    public var description: String { "\(file):\(line):\(column)" }

    /// `file:line`, for run-time messages that point at a step.
    public var fileAndLine: String { "\(file):\(line)" }

    /// The location `offset` columns further along the same line.
    public func advanced(by offset: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + offset)
    }
}
