/// The rules for variable and connection names: a letter or `_`, then letters, digits, `_` or `-`.
package enum Identifier {
    package static func isStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || (scalar.isASCII && scalar.properties.isAlphabetic)
    }

    package static func isContinuation(_ scalar: Unicode.Scalar) -> Bool {
        isStart(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }

    package static func isValid(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isStart(first) else { return false }
        return text.unicodeScalars.allSatisfy(isContinuation)
    }

    /// When `scalars[start...]` reads `name}` or `name.field}` (a listener's `{l.port}`), the
    /// index of that `}`.
    static func closingBrace(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard start < scalars.count, isStart(scalars[start]) else { return nil }
        var index = start + 1
        while index < scalars.count, isContinuation(scalars[index]) { index += 1 }
        if index + 1 < scalars.count, scalars[index] == ".", isStart(scalars[index + 1]) {
            index += 2
            while index < scalars.count, isContinuation(scalars[index]) { index += 1 }
        }
        return index < scalars.count && scalars[index] == "}" ? index : nil
    }
}
