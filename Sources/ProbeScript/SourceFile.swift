/// The text of one scenario file, kept so diagnostics can quote the offending line.
package struct SourceFile: Sendable {
    package let path: String
    package let text: String
    /// The text as Unicode scalars, as the lexer reads it: made once a file.
    let scalars: [Unicode.Scalar]
    /// Where each line lies in `scalars`, split at LF exactly as the lexer counts lines, without
    /// a trailing CR. (Splitting Characters would not split at CR LF: it is one Character.)
    private let lineRanges: [Range<Int>]

    package init(path: String, text: String) {
        self.path = path
        self.text = text
        let scalars = Array(text.unicodeScalars)
        var lineRanges: [Range<Int>] = []
        var start = 0
        /// The line from `start` to `end`, less a CR before its end.
        func line(to end: Int) -> Range<Int> { start..<(end > start && scalars[end - 1] == "\r" ? end - 1 : end) }
        for index in scalars.indices where scalars[index] == "\n" {
            lineRanges.append(line(to: index))
            start = index + 1
        }
        lineRanges.append(line(to: scalars.count))
        self.scalars = scalars
        self.lineRanges = lineRanges
    }

    /// How many lines the text has (an empty last line counted).
    var lineCount: Int { lineRanges.count }

    /// The scalars of the line with 0-based index `index`, without its line ending.
    func scalars(ofLineAt index: Int) -> ArraySlice<Unicode.Scalar> { scalars[lineRanges[index]] }

    /// The line with 1-based number `number`, without its line ending, or nil past the end.
    package func line(_ number: Int) -> String? {
        guard number >= 1, number <= lineCount else { return nil }
        return String(scalars: scalars(ofLineAt: number - 1))
    }
}
