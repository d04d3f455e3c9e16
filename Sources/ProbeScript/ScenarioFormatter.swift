/// Rewrites a scenario file in the canonical layout `tcpprobe fmt` writes: one statement per
/// line, blocks indented two spaces a level, one space between tokens (none before a comma,
/// none after one between two words, as in `split at 3,5`; none where the file glued two tokens,
/// as in `env KEY="a b"`), at most one blank line in a row, trailing comments aligned within each
/// paragraph (lines with no blank or comment line between them), two columns past the longest
/// commented statement, LF line endings. Comments are kept as
/// written. Literals keep their spelling: `"\x41"` stays `"\x41"`.
///
/// A file with errors is not formatted. A result that differs from the file is parsed again and
/// compared with the original, statement by statement without source positions; a difference is
/// an error, so the formatter never writes a file that means something else.
package enum ScenarioFormatter {
    /// Why a file was not formatted.
    package enum Failure: Error, Sendable {
        /// The file does not parse; these are its errors.
        case invalid([Diagnostic])
        /// The formatted text would parse differently: a bug in the formatter.
        case meaningChanged(formatted: String)
    }

    /// Columns per block level.
    static let indentWidth = 2
    /// Spaces at least between a statement and its trailing comment.
    static let commentGap = 2

    /// The canonical layout of `source`.
    package static func format(_ source: SourceFile) throws(Failure) -> String {
        let parsed = Parser.parse(source)
        guard parsed.diagnostics.isEmpty else { throw .invalid(parsed.diagnostics) }
        var lexer = Lexer(source)
        let formatted = render(layout(lexer.tokenize(), in: source))
        // Unchanged text means the same: the check below costs a reflection of every statement.
        if formatted == source.text { return formatted }
        let again = Parser.parse(SourceFile(path: source.path, text: formatted))
        guard again.diagnostics.isEmpty,
              SyntaxFingerprint.of(again.statements) == SyntaxFingerprint.of(parsed.statements) else {
            throw .meaningChanged(formatted: formatted)
        }
        return formatted
    }

    /// One line of output.
    enum OutputLine: Equatable {
        case blank
        /// A statement (or a block's brace) at a depth, with its trailing comment.
        case code(depth: Int, text: String, comment: String?)
        /// A line holding a comment only.
        case comment(depth: Int, text: String)
    }

    /// The output lines: tokens regrouped into statements, source line by source line.
    static func layout(_ tokens: [Token], in source: SourceFile) -> [OutputLine] {
        var output: [OutputLine] = []
        var depth = 0
        var byLine: [Int: [Token]] = [:]
        for token in tokens where token.kind != .newline && token.kind != .end {
            byLine[token.location.line, default: []].append(token)
        }
        for index in 0..<source.lineCount {
            let scalars = Array(source.scalars(ofLineAt: index))
            let number = index + 1
            let lineTokens = byLine[number] ?? []
            let comment = trailingComment(of: scalars, after: lineTokens.last)
            if lineTokens.isEmpty {
                if let comment {
                    output.append(.comment(depth: depth, text: comment))
                } else if output.last.map({ $0 != .blank }) ?? false {
                    output.append(.blank)
                }
                continue
            }
            var statement: [Token] = []
            var pendingComment = comment
            func emit(_ text: String, at level: Int) {
                output.append(.code(depth: level, text: text, comment: pendingComment))
                pendingComment = nil
            }
            func flush() {
                if !statement.isEmpty { emit(join(statement, in: scalars), at: depth) }
                statement = []
            }
            for token in lineTokens {
                switch token.kind {
                case .semicolon:
                    flush()
                case .openBrace:
                    statement.append(token)
                    flush()
                    depth += 1
                case .closeBrace:
                    // What follows on the line stays with it: `} until closed`.
                    flush()
                    depth = max(0, depth - 1)
                    statement = [token]
                default:
                    statement.append(token)
                }
            }
            flush()
        }
        while output.last == .blank { output.removeLast() }
        return output
    }

    /// The statement's tokens as written, with canonical spaces between them.
    static func join(_ tokens: [Token], in scalars: [Unicode.Scalar]) -> String {
        var text = ""
        for (index, token) in tokens.enumerated() {
            if index > 0 { text += separator(before: token, after: tokens[index - 1], preceding: index > 1 ? tokens[index - 2] : nil) }
            text += spelling(of: token, in: scalars)
        }
        return text
    }

    static func separator(before token: Token, after previous: Token, preceding: Token?) -> String {
        switch (previous.kind, token.kind) {
        case (_, .comma): return ""
        case (.comma, .word): return preceding?.word != nil ? "" : " "
        case (.comma, _): return " "
        case (_, .openBrace): return " "
        default: return token.isAdjacent ? "" : " "
        }
    }

    /// The token's text in its source line.
    static func spelling(of token: Token, in scalars: [Unicode.Scalar]) -> String {
        let from = max(0, min(token.location.column - 1, scalars.count))
        let to = min(from + token.length, scalars.count)
        return String(scalars: scalars[from..<to])
    }

    /// The `# …` after the line's last token (or the whole line's, without tokens), trimmed.
    static func trailingComment(of scalars: [Unicode.Scalar], after last: Token?) -> String? {
        let start = last.map { min(scalars.count, $0.location.column - 1 + $0.length) } ?? 0
        // A CR is blank to the lexer: a comment's last one would end its line as CRLF when read again.
        let blank = { (scalar: Unicode.Scalar) in scalar == " " || scalar == "\t" || scalar == "\r" }
        var rest = scalars[start...].drop(while: blank)
        guard rest.first == "#" else { return nil }
        while let end = rest.last, blank(end) { rest = rest.dropLast() }
        return String(scalars: rest)
    }

    /// The lines as text: indentation, and the trailing comments of each paragraph aligned.
    static func render(_ lines: [OutputLine]) -> String {
        var rendered: [String] = []
        var paragraph: [(code: String, comment: String?)] = []
        func endParagraph() {
            let commented = paragraph.filter { $0.comment != nil }.map(\.code.unicodeScalars.count)
            let column = (commented.max() ?? 0) + commentGap
            for line in paragraph {
                guard let comment = line.comment else { rendered.append(line.code); continue }
                rendered.append(line.code + String(repeating: " ", count: column - line.code.unicodeScalars.count) + comment)
            }
            paragraph = []
        }
        for line in lines {
            switch line {
            case .code(let depth, let text, let comment):
                paragraph.append((indent(depth) + text, comment))
            case .blank:
                endParagraph()
                rendered.append("")
            case .comment(let depth, let text):
                endParagraph()
                rendered.append(indent(depth) + text)
            }
        }
        endParagraph()
        return rendered.isEmpty ? "" : rendered.joined(separator: "\n") + "\n"
    }

    static func indent(_ depth: Int) -> String {
        String(repeating: " ", count: depth * indentWidth)
    }
}
