/// A TextMate grammar for `.scn` files (VS Code, Sublime Text, and editors that read
/// `.tmLanguage.json`), made from the parser's own table: its keywords are every lowercase word
/// of every synopsis `tcpprobe grammar` prints (outside its parenthesised explanations), so a
/// new keyword is highlighted once it is parsed.
package enum TextMateGrammar {
    /// The words the grammar highlights as keywords, sorted, longest first where one begins another.
    package static var keywords: [String] {
        var words = Set<String>()
        for line in Grammar.reference.split(separator: "\n") {
            // What a synopsis says in parentheses explains it; it is not syntax.
            var depth = 0
            let syntax = line.filter { character in
                if character == "(" { depth += 1 }
                defer { if character == ")" { depth = max(0, depth - 1) } }
                return depth == 0 && character != ")"
            }
            var word = ""
            for character in syntax + " " {
                if character.isLowercase && character.isASCII || character == "-" && !word.isEmpty || character.isNumber && !word.isEmpty {
                    word.append(character)
                } else {
                    if word.count > 1, word.first!.isLetter, !word.hasSuffix("-") { words.insert(word) }
                    word = ""
                }
            }
        }
        return words.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// The grammar as JSON.
    package static var json: String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        }
        let keywordPattern = "\\b(" + keywords.map { $0.replacing("-", with: "\\-") }.joined(separator: "|") + ")\\b(?!-)"
        let patterns: [(name: String, match: String)] = [
            ("comment.line.number-sign.scn", "#.*$"),
            ("entity.name.tag.connection.scn", "^\\s*[A-Za-z_][A-Za-z0-9_]*(\\.[0-9]+)?:(?=\\s)"),
            ("string.quoted.double.hex.scn", "hex\"[0-9A-Za-z\\s:{}_.?-]*\""),
            ("string.quoted.double.scn", "\"(\\\\.|[^\"\\\\])*\""),
            ("string.regexp.scn", "/(\\\\.|[^/\\\\\\n])+/"),
            ("variable.other.interpolation.scn", "\\{[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z]+)?\\}"),
            ("constant.numeric.scn", "\\b[0-9]+(\\.[0-9]+)?(us|ms|s|m|h|B|KB|MB|GB|KiB|MiB|GiB)?(/s)?\\b"),
            ("keyword.other.scn", keywordPattern),
        ]
        var out = "{\n  \"$schema\": \"https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json\",\n"
        out += "  \"name\": \"tcpprobe scenario\",\n  \"scopeName\": \"source.scn\",\n  \"fileTypes\": [\"scn\", \"inc\"],\n  \"patterns\": [\n"
        out += patterns.map { "    { \"name\": \(quoted($0.name)), \"match\": \(quoted($0.match)) }" }.joined(separator: ",\n")
        return out + "\n  ]\n}\n"
    }
}
