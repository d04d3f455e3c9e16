/// Splits a command into argv the way a POSIX shell splits words, without running a shell:
/// single quotes are literal, double quotes allow `\"` `\\` `\$` and `` \` ``, a backslash
/// outside quotes escapes the next character.
package enum ShellWords {
    package enum SplitError: Error, CustomStringConvertible {
        case unterminatedQuote(Character)
        case trailingBackslash

        package var description: String {
            switch self {
            case .unterminatedQuote(let quote): return "unterminated \(quote) quote"
            case .trailingBackslash: return "the command ends with a lone backslash"
            }
        }
    }

    package static func split(_ command: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = Array(command).makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            case "'":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "'" { closed = true; break }
                    current.append(next)
                }
                if !closed { throw SplitError.unterminatedQuote("'") }
            case "\"":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "\"" { closed = true; break }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { throw SplitError.unterminatedQuote("\"") }
                        if !"\"\\$`".contains(escaped) { current.append("\\") }
                        current.append(escaped)
                    } else {
                        current.append(next)
                    }
                }
                if !closed { throw SplitError.unterminatedQuote("\"") }
            case "\\":
                guard let escaped = iterator.next() else { throw SplitError.trailingBackslash }
                inWord = true
                current.append(escaped)
            default:
                inWord = true
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
