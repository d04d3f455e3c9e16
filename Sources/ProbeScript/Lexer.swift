/// Turns a scenario file into tokens. It never stops at an error: each bad literal becomes a
/// diagnostic and lexing goes on, so one run reports every problem of a file.
package struct Lexer {
    private let scalars: [Unicode.Scalar]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0
    package private(set) var diagnostics: [Diagnostic] = []

    package init(_ source: SourceFile) {
        self.scalars = source.scalars
        self.file = source.path
    }

    /// Lexes the whole file; the last token is `.end`.
    package mutating func tokenize() -> [Token] {
        var tokens: [Token] = []
        var adjacent = false
        while true {
            let skipped = skipBlanks()
            if skipped { adjacent = false }
            guard index < scalars.count else {
                tokens.append(Token(kind: .end, location: here, length: 1, isAdjacent: false))
                return tokens
            }
            let start = index
            let location = here
            let scalar = scalars[index]
            var kind: Token.Kind
            switch scalar {
            case "#":
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
                continue
            case "\n":
                index += 1
                kind = .newline
                line += 1
                lineStart = index
            case "\"":
                kind = .string(lexString(from: location))
            case "/":
                kind = lexRegex(from: location)
            case ",":
                index += 1; kind = .comma
            case ";":
                index += 1; kind = .semicolon
            case "}":
                index += 1; kind = .closeBrace
            case "{" where !startsInterpolation(at: index):
                index += 1; kind = .openBrace
            case "=" where index + 1 < scalars.count && scalars[index + 1] == "/":
                // `"name"=/re/`: the `=` is a word, and the regex follows.
                index += 1; kind = .word("=")
            default:
                let word = lexWord()
                if word == "hex", index < scalars.count, scalars[index] == "\"" {
                    kind = .hex(lexHex(from: location))
                } else {
                    kind = .word(word)
                }
            }
            tokens.append(Token(kind: kind, location: location, length: max(1, index - start), isAdjacent: adjacent))
            adjacent = true
        }
    }

    private var here: SourceLocation {
        SourceLocation(file: file, line: line, column: index - lineStart + 1)
    }

    /// Skips spaces, tabs and the CR of CRLF line endings; true when anything was skipped.
    private mutating func skipBlanks() -> Bool {
        let start = index
        while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" || scalars[index] == "\r" { index += 1 }
        return index > start
    }

    private func startsInterpolation(at position: Int) -> Bool {
        Identifier.closingBrace(in: scalars, from: position + 1) != nil
    }

    private func isWordBoundary(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n" || scalar == "\""
            || scalar == "," || scalar == ";" || scalar == "#"
    }

    private mutating func lexWord() -> String {
        let start = index
        var depth = 0
        while index < scalars.count, !isWordBoundary(scalars[index]) {
            let scalar = scalars[index]
            // `{NAME + 1}` is one interpolation, its spaces and all.
            if scalar == "{", let close = Identifier.closingBrace(in: scalars, from: index + 1) {
                index = close + 1
                continue
            }
            if scalar == "{" { depth += 1 }
            if scalar == "}" {
                if depth == 0 { break }
                depth -= 1
            }
            index += 1
        }
        return String(scalars: scalars[start..<index])
    }

    private mutating func error(_ message: String, at location: SourceLocation, length: Int = 1, hint: String? = nil) {
        diagnostics.append(Diagnostic(at: location, length: length, message, hint: hint))
    }

    /// Lexes `"..."` starting at the opening quote, with escapes and `{name}` interpolation.
    private mutating func lexString(from location: SourceLocation) -> Template {
        index += 1
        var parts: [Template.Part] = []
        var bytes: [UInt8] = []
        func flush() { if !bytes.isEmpty { parts.append(.bytes(bytes)); bytes = [] } }
        while true {
            guard index < scalars.count, scalars[index] != "\n" else {
                error("unterminated string", at: location, hint: "close it with \" on the same line")
                flush()
                return Template(parts: parts)
            }
            let scalar = scalars[index]
            switch scalar {
            case "\"":
                index += 1
                flush()
                return Template(parts: parts)
            case "\\":
                bytes += lexEscape()
            case "{":
                if let close = Identifier.closingBrace(in: scalars, from: index + 1) {
                    flush()
                    parts.append(.interpolation(String(scalars: scalars[(index + 1)..<close]), at: here.advanced(by: 1)))
                    index = close + 1
                } else {
                    error("'{' does not start an interpolation here", at: here,
                          hint: "write \\{ for a literal brace, {name} to insert a variable, or {name + 1} to add to one")
                    bytes.append(UInt8(ascii: "{"))
                    index += 1
                }
            default:
                bytes.appendUTF8(of: scalar)
                index += 1
            }
        }
    }

    /// Lexes one backslash escape, reporting a bad one and keeping its text.
    private mutating func lexEscape() -> [UInt8] {
        let location = here
        index += 1
        guard index < scalars.count, scalars[index] != "\n" else {
            error("a string cannot end with a lone backslash", at: location)
            return []
        }
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case "r": return [13]
        case "n": return [10]
        case "t": return [9]
        case "0": return [0]
        case "\\": return [92]
        case "\"": return [34]
        case "{": return [123]
        case "}": return [125]
        case "x":
            let digits = takeHexDigits(max: 2)
            guard digits.count == 2, let value = UInt8(digits, radix: 16) else {
                error("bad escape \\x\(digits): expected two hex digits", at: location, length: 2 + digits.count)
                return []
            }
            return [value]
        case "u":
            guard index < scalars.count, scalars[index] == "{" else {
                error("bad escape \\u: expected \\u{HHHH}", at: location, length: 2)
                return []
            }
            index += 1
            let digits = takeHexDigits(max: 8)
            guard index < scalars.count, scalars[index] == "}", let value = UInt32(digits, radix: 16),
                  let unicode = Unicode.Scalar(value) else {
                error("bad escape \\u{\(digits)}: expected 1 to 8 hex digits naming a Unicode scalar", at: location, length: 3 + digits.count)
                return []
            }
            index += 1
            return Array(String(unicode).utf8)
        default:
            error("unknown escape \\\(scalar)", at: location, length: 2,
                  hint: "known escapes: \\r \\n \\t \\0 \\\\ \\\" \\{ \\} \\xHH \\u{HHHH}")
            return Array("\\\(scalar)".utf8)
        }
    }

    private mutating func takeHexDigits(max count: Int) -> String {
        var digits = ""
        while digits.count < count, index < scalars.count, scalars[index].isHexDigit {
            digits.unicodeScalars.append(scalars[index])
            index += 1
        }
        return digits
    }

    /// Lexes the `"..."` of `hex"0d 0a ff"` (the index is at the quote); `{name}` inserts a
    /// variable's bytes as they are, and `??` stands for any one byte (where bytes are expected).
    private mutating func lexHex(from location: SourceLocation) -> Template {
        index += 1
        var parts: [Template.Part] = []
        var bytes: [UInt8] = []
        var pending: String = ""
        var pendingLocation = here
        var reportedBadDigit = false
        while index < scalars.count, scalars[index] != "\"", scalars[index] != "\n" {
            let scalar = scalars[index]
            if scalar == "{", pending.isEmpty, let close = Identifier.closingBrace(in: scalars, from: index + 1) {
                if !bytes.isEmpty { parts.append(.bytes(bytes)); bytes = [] }
                parts.append(.interpolation(String(scalars: scalars[(index + 1)..<close]), at: here.advanced(by: 1)))
                index = close + 1
                continue
            }
            if scalar == "?", pending.isEmpty, index + 1 < scalars.count, scalars[index + 1] == "?" {
                if !bytes.isEmpty { parts.append(.bytes(bytes)); bytes = [] }
                parts.append(.anyByte(here))
                index += 2
                continue
            }
            if scalar.isHexDigit {
                if pending.isEmpty { pendingLocation = here }
                pending.unicodeScalars.append(scalar)
                if pending.count == 2 { bytes.append(UInt8(pending, radix: 16)!); pending = "" }
            } else if scalar == " " || scalar == "\t" || scalar == ":" || scalar == "-" {
                if !pending.isEmpty {
                    error("odd hex digit '\(pending)': write each byte as two digits", at: pendingLocation)
                    pending = ""
                }
            } else if !reportedBadDigit {
                error("'\(scalar)' is not a hex digit", at: here,
                      hint: scalar == "?" ? "?? (two of them) stands for any one byte in an expected hex string"
                          : "hex strings hold pairs of 0-9 a-f, optionally spaced")
                reportedBadDigit = true
            }
            index += 1
        }
        if !pending.isEmpty { error("odd hex digit '\(pending)': write each byte as two digits", at: pendingLocation) }
        if index < scalars.count, scalars[index] == "\"" {
            index += 1
        } else {
            error("unterminated hex string", at: location, hint: "close it with \" on the same line")
        }
        if !bytes.isEmpty || parts.isEmpty { parts.append(.bytes(bytes)) }
        return Template(parts: parts)
    }

    /// Lexes `/pattern/flags`; `\/` is a slash inside the pattern.
    private mutating func lexRegex(from location: SourceLocation) -> Token.Kind {
        index += 1
        var pattern = ""
        var inClass = false
        while true {
            guard index < scalars.count, scalars[index] != "\n" else {
                error("unterminated regex", at: location, hint: "close it with / on the same line")
                return .regex(RegexLiteral(pattern: pattern, location: location))
            }
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count, scalars[index + 1] != "\n" {
                if scalars[index + 1] != "/" { pattern.unicodeScalars.append(scalar) }
                pattern.unicodeScalars.append(scalars[index + 1])
                index += 2
                continue
            }
            index += 1
            if scalar == "[" { inClass = true }
            if scalar == "]" { inClass = false }
            if scalar == "/", !inClass { break }
            pattern.unicodeScalars.append(scalar)
        }
        var literal = RegexLiteral(pattern: pattern, location: location)
        while index < scalars.count, !isWordBoundary(scalars[index]), scalars[index] != "}" {
            switch scalars[index] {
            case "i": literal.ignoresCase = true
            case "s": literal.dotMatchesNewlines = true
            default:
                error("unknown regex flag '\(scalars[index])'", at: here, hint: "flags are i (ignore case) and s (dot matches newline)")
            }
            index += 1
        }
        return .regex(literal)
    }
}
