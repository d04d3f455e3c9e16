/// Rewrites a regex pattern so that runs of plain literal characters are `\Q...\E` quotes.
///
/// The pattern means the same; only compiling it gets faster. Swift's regex parser spends
/// microseconds on each literal character it lexes as an atom, and a quote is lexed as one
/// atom: `check` of a long scenario full of regexes gets faster (BENCHMARKS.md 6). Quoting is conservative:
/// anything the scanner is unsure of is copied as written, which is always correct.
/// - Only ASCII letters, digits, spaces and inert punctuation join a run, never inside a
///   character class, a group's header, a `{...}` quantifier or right after an escape.
/// - A run's edges stay unquoted next to anything that could bind to them: its last character
///   unless `(`, `)`, `|`, `^`, `$`, `.`, `[` or the end follows (a quantifier applies to the
///   last character alone; a combining mark joins it into one character), its first after an
///   escape or a non-ASCII scalar (a prepended mark joins it too).
/// - Patterns with extended syntax (`x` option), their own `\Q` quotes, or `(*...)` verbs are
///   left as they are.
enum LiteralRunQuoter {
    /// Runs shorter than this are left as they are: the quote's own four characters cost too.
    static let shortestRun = 3

    static func quotingLiteralRuns(in pattern: String) -> String {
        let scalars = Array(pattern.unicodeScalars)
        guard !usesSyntaxTheScannerLeavesAlone(scalars) else { return pattern }
        var out = String.UnicodeScalarView()
        var run: [Unicode.Scalar] = []
        var runMayStart = true
        var index = 0

        func copy(through closer: Unicode.Scalar) {
            while index < scalars.count {
                let scalar = scalars[index]
                out.append(scalar)
                index += 1
                if scalar == closer { return }
            }
        }

        func endRun(before next: Unicode.Scalar?) {
            var held: Unicode.Scalar?
            if let next, !"()|^$.[".unicodeScalars.contains(next) { held = run.popLast() }
            if run.count >= shortestRun {
                out.append(contentsOf: "\\Q".unicodeScalars)
                out.append(contentsOf: run)
                out.append(contentsOf: "\\E".unicodeScalars)
            } else {
                out.append(contentsOf: run)
            }
            if let held { out.append(held) }
            run.removeAll(keepingCapacity: true)
        }

        while index < scalars.count {
            let scalar = scalars[index]
            if isInert(scalar) {
                if run.isEmpty, !runMayStart { out.append(scalar) } else { run.append(scalar) }
                runMayStart = true
                index += 1
                continue
            }
            endRun(before: scalar)
            out.append(scalar)
            index += 1
            runMayStart = scalar.isASCII
            switch scalar {
            case "\\":
                // The escaped character, then any letters, digits or bracketed argument of it
                // (`\x41`, `\p{L}`, `\k<name>`, `\g-1`, `\12`), copied as written.
                guard index < scalars.count else { break }
                out.append(scalars[index])
                index += 1
                copyEscapeArguments()
                runMayStart = false
            case "[":
                copyCharacterClass()
            case "(":
                if index < scalars.count, scalars[index] == "?" {
                    copyGroupHeader()
                }
            case "{":
                copy(through: "}")
            default:
                break
            }
        }
        endRun(before: nil)
        return String(out)

        func copyEscapeArguments() {
            while index < scalars.count {
                let scalar = scalars[index]
                switch scalar {
                case "{": copy(through: "}")
                case "<": copy(through: ">")
                case "'":
                    out.append(scalar)
                    index += 1
                    copy(through: "'")
                case "-":
                    out.append(scalar)
                    index += 1
                default:
                    guard scalar.isASCIILetter || ("0"..."9").contains(scalar) else { return }
                    out.append(scalar)
                    index += 1
                }
            }
        }

        /// A class ends at the `]` that balances its `[`; a `]` first in a class is literal.
        func copyCharacterClass() {
            var depth = 1
            var previous: Unicode.Scalar = "["
            while index < scalars.count, depth > 0 {
                let scalar = scalars[index]
                out.append(scalar)
                index += 1
                switch scalar {
                case "\\":
                    if index < scalars.count { out.append(scalars[index]); index += 1 }
                case "[": depth += 1
                case "]" where previous != "[" && previous != "^": depth -= 1
                default: break
                }
                previous = scalar
            }
        }

        /// `(?` and its name or options, up to the `>`, `:` or `)` that ends them.
        func copyGroupHeader() {
            out.append(scalars[index])
            index += 1
            guard index < scalars.count else { return }
            switch scalars[index] {
            case "'":
                out.append(scalars[index])
                index += 1
                copy(through: "'")
            case "#":
                copy(through: ")")
            default:
                while index < scalars.count {
                    let scalar = scalars[index]
                    out.append(scalar)
                    index += 1
                    if ":)>".unicodeScalars.contains(scalar) { return }
                }
            }
        }
    }

    /// ASCII letters, digits, the space and punctuation that means itself anywhere outside a
    /// class or a group's header.
    static func isInert(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", " ", ":", ",", ";", "=", "@", "%", "&", "~", "\"", "'", "_", "!", "/", "`":
            return true
        default:
            return false
        }
    }

    /// Extended syntax (the `x` option, where spaces and `#` mean other things), quotes of the
    /// pattern's own and `(*...)` verbs.
    static func usesSyntaxTheScannerLeavesAlone(_ scalars: [Unicode.Scalar]) -> Bool {
        for index in scalars.indices {
            switch scalars[index] {
            case "\\":
                if index + 1 < scalars.count, scalars[index + 1] == "Q" { return true }
            case "(":
                guard index + 1 < scalars.count else { continue }
                if scalars[index + 1] == "*" { return true }
                guard scalars[index + 1] == "?" else { continue }
                var option = index + 2
                while option < scalars.count, scalars[option].properties.isAlphabetic || scalars[option] == "^" || scalars[option] == "-" {
                    if scalars[option] == "x" { return true }
                    option += 1
                }
            default:
                continue
            }
        }
        return false
    }
}
