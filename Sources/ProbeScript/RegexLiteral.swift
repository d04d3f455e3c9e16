/// A `/.../flags` pattern. `{name}` (a letter-led name) interpolates a variable, escaped;
/// `{3}` and `{2,5}` stay quantifiers. Named groups `(?<name>...)` set variables.
package struct RegexLiteral: Sendable, Hashable {
    package var pattern: String
    package var ignoresCase: Bool
    package var dotMatchesNewlines: Bool
    package var location: SourceLocation

    package init(pattern: String, ignoresCase: Bool = false, dotMatchesNewlines: Bool = false, location: SourceLocation) {
        self.pattern = pattern
        self.ignoresCase = ignoresCase
        self.dotMatchesNewlines = dotMatchesNewlines
        self.location = location
    }

    /// The names of `(?<name>...)` groups, in order.
    package var groupNames: [String] {
        let scalars = Array(pattern.unicodeScalars)
        var names: [String] = []
        var index = 0
        while index + 3 < scalars.count {
            if scalars[index] == "\\" { index += 2; continue }
            if scalars[index] == "(", scalars[index + 1] == "?", scalars[index + 2] == "<",
               Identifier.isStart(scalars[index + 3]) {
                var end = index + 3
                var name = ""
                while end < scalars.count, scalars[end] != ">" { name.unicodeScalars.append(scalars[end]); end += 1 }
                names.append(name)
                index = end
            }
            index += 1
        }
        return names
    }

    /// The `{name}` interpolations, with their locations (one column past the opening slash).
    package var template: Template { Template.word(pattern, at: location.advanced(by: 1)) }

    /// The pattern with each interpolated variable's value escaped for literal matching.
    package func expandedPattern(_ lookup: (String) -> String?) -> String {
        var out = ""
        for part in template.parts {
            switch part {
            case .bytes(let bytes): out += String(decoding: bytes, as: UTF8.self)
            case .repeated(let bytes, let times): out += String(repeating: String(decoding: bytes, as: UTF8.self), count: times)
            case .repeatedByVariable(let bytes, let name, let plus, _):
                out += String(repeating: RegexLiteral.escape(String(decoding: bytes, as: UTF8.self)), count: Template.times(Template.value(lookup(name), plus: plus), of: bytes))
            case .variable(let name, let plus, _): out += RegexLiteral.escape(Template.value(lookup(name), plus: plus))
            case .anyByte: continue // only hex strings hold `??`, and a regex is text
            }
        }
        return out
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if "\\^$.|?*+()[]{}/-".unicodeScalars.contains(scalar) { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    package var description: String {
        "/\(pattern)/" + (ignoresCase ? "i" : "") + (dotMatchesNewlines ? "s" : "")
    }
}

extension RegexLiteral {
    /// Compiles the pattern with its variables filled in; throws the engine's message when invalid.
    /// Literal runs are compiled as quotes (`LiteralRunQuoter`); a pattern is compiled as written
    /// when that fails, so the error message names what the user wrote.
    package func compile(_ lookup: (String) -> String?) throws -> Regex<AnyRegexOutput> {
        try compile(expandedPattern: expandedPattern(lookup))
    }

    /// Compiles `pattern`, this literal's `expandedPattern`, with this literal's flags.
    package func compile(expandedPattern pattern: String) throws -> Regex<AnyRegexOutput> {
        var regex: Regex<AnyRegexOutput>
        do {
            regex = try Regex(LiteralRunQuoter.quotingLiteralRuns(in: pattern))
        } catch {
            regex = try Regex(pattern)
        }
        if ignoresCase { regex = regex.ignoresCase() }
        if dotMatchesNewlines { regex = regex.dotMatchesNewlines() }
        return regex
    }

    /// The engine's complaint about the pattern, or nil when it compiles.
    package var compileError: String? {
        do {
            _ = try compile { _ in "x" }
            return nil
        } catch {
            return "\(error)"
        }
    }
}
