/// "Did you mean ...?" by edit distance.
package enum Suggestion {
    /// The closest candidate within a small edit distance of `word`, if any.
    package static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = word.count <= 4 ? 1 : (word.count <= 8 ? 2 : 3)
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate)
            if distance <= limit, distance < (best?.1 ?? .max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Levenshtein distance with transpositions counted as one edit.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }

    /// `expected one of: a, b, c` with a did-you-mean hint for `found`.
    static func hint(for found: String?, in candidates: [String]) -> String? {
        guard let found, let match = closest(to: found, in: candidates) else { return nil }
        return "did you mean '\(match)'?"
    }
}
