/// The text of one scenario file, kept so diagnostics can quote the offending line.
package struct SourceFile: Sendable {
    package let path: String
    package let text: String
    /// The lines as Unicode scalars, split at LF exactly as the lexer counts lines, without a
    /// trailing CR. (Splitting Characters would not split at CR LF: it is one Character.)
    let scalarLines: [[Unicode.Scalar]]

    package init(path: String, text: String) {
        self.path = path
        self.text = text
        self.scalarLines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var scalars = Array(line)
            if scalars.last == "\r" { scalars.removeLast() }
            return scalars
        }
    }

    /// The line with 1-based number `number`, without its line ending, or nil past the end.
    package func line(_ number: Int) -> String? {
        guard number >= 1, number <= scalarLines.count else { return nil }
        return String(scalars: scalarLines[number - 1])
    }
}
