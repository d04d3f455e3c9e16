/// The rules for variable and connection names: a letter or `_`, then letters, digits, `_` or `-`.
package enum Identifier {
    package static func isStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.isASCIILetter
    }

    package static func isContinuation(_ scalar: Unicode.Scalar) -> Bool {
        isStart(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }

    package static func isValid(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isStart(first) else { return false }
        return text.unicodeScalars.allSatisfy(isContinuation)
    }

    /// When `scalars[start...]` reads `name}` or `name.field}` (a listener's `{l.port}`), or
    /// either with a whole number added or taken away (`name + 1}`, `name - 1}`, spaces around
    /// the sign), the index of that `}`.
    static func closingBrace(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard start < scalars.count, isStart(scalars[start]) else { return nil }
        var index = start + 1
        while index < scalars.count, isContinuation(scalars[index]) { index += 1 }
        if index + 1 < scalars.count, scalars[index] == ".", isStart(scalars[index + 1]) {
            index += 2
            while index < scalars.count, isContinuation(scalars[index]) { index += 1 }
        }
        if index + 3 < scalars.count, scalars[index] == " ", scalars[index + 1] == "+" || scalars[index + 1] == "-", scalars[index + 2] == " ",
           ("0"..."9").contains(scalars[index + 3]) {
            index += 3
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
        }
        return index < scalars.count && scalars[index] == "}" ? index : nil
    }

    /// The variable and the whole number added to it in an interpolation's text (`name`,
    /// `name + 1`, `name - 1`): an offset of 0 for a plain name.
    package static func sum(_ text: String) -> (name: String, offset: Int) {
        let words = text.split(separator: " ")
        guard words.count == 3, let number = Int(words[2]) else { return (text, 0) }
        return (String(words[0]), words[1] == "-" ? -number : number)
    }
}
