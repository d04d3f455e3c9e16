/// The text of one scenario file, kept so diagnostics can quote the offending line.
public struct SourceFile: Sendable {
    public let path: String
    public let text: String
    public let lines: [Substring]

    public init(path: String, text: String) {
        self.path = path
        self.text = text
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The line with 1-based number `number`, without its line ending, or nil past the end.
    public func line(_ number: Int) -> String? {
        guard number >= 1, number <= lines.count else { return nil }
        var line = String(lines[number - 1])
        if line.hasSuffix("\r") { line.removeLast() }
        return line
    }
}
