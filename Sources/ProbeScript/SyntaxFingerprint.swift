/// What statements mean, as text without where they stand: every field of every statement,
/// nested blocks included, but no source location and no statement's text as written. Two
/// files whose fingerprints are equal run alike; `tcpprobe fmt` checks its output with it.
package enum SyntaxFingerprint {
    /// The fingerprint of `statements`.
    package static func of(_ statements: [Statement]) -> String {
        var out = ""
        for statement in statements { write(statement, into: &out) }
        return out
    }

    private static func write(_ statement: Statement, into out: inout String) {
        out += "\n" + (statement.prefix.map { $0 + ": " } ?? "")
        write(any: statement.kind, into: &out)
    }

    /// Any value by reflection; a statement in a block as a statement, and no source location
    /// (its parent leaves it out).
    private static func write(any value: Any, into out: inout String) {
        if let statement = value as? Statement { return write(statement, into: &out) }
        let mirror = Mirror(reflecting: value)
        guard !mirror.children.isEmpty else {
            out += String(reflecting: value)
            return
        }
        var parts: [String] = []
        for child in mirror.children where !(child.value is SourceLocation) {
            var part = (child.label ?? "") + ":"
            write(any: child.value, into: &part)
            parts.append(part)
        }
        // Dictionaries and sets list their members in no fixed order.
        if mirror.displayStyle == .dictionary || mirror.displayStyle == .set { parts.sort() }
        out += "\(mirror.subjectType)(" + parts.joined(separator: ",") + ")"
    }
}
