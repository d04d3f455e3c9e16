/// `set framing length W [big|little] [after N] [adjust ±K]` or `set framing varint [after N]`
/// as written: each number may be a `{variable}`, resolved (and checked) when the step runs.
package struct LengthSetting: Sendable, Hashable {
    /// The length field's width in bytes; nil for a varint.
    package var width: Argument<Int>?
    package var bigEndian = true
    package var after: Argument<Int>?
    package var adjust: Argument<Int>?

    package init(width: Argument<Int>?, bigEndian: Bool = true, after: Argument<Int>? = nil, adjust: Argument<Int>? = nil) {
        self.width = width
        self.bigEndian = bigEndian
        self.after = after
        self.adjust = adjust
    }

    /// The most head bytes before a length field.
    package static let longestHead = 64

    /// The header, when the file alone says it (no variable in a number).
    package var literal: LengthHeader? {
        guard let after = after.map(\.literal) ?? 0, let adjust = adjust.map(\.literal) ?? 0 else { return nil }
        guard let width else { return LengthHeader(field: .varint, after: after, adjust: adjust) }
        return width.literal.map { LengthHeader(width: $0, bigEndian: bigEndian, after: after, adjust: adjust) }
    }

    var templates: [Template] { width.templates + after.templates + adjust.templates }
}
