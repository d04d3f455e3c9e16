/// How a length-prefixed message begins (`set framing length W [big|little] [after N] [adjust
/// ±K]`, `set framing varint [after N]`): `after` head bytes, then a length field of W bytes in
/// either byte order or a base-128 varint (low group first), whose value plus `adjust` is the
/// payload's length. PostgreSQL is `length 4 after 1 adjust -4` (a type byte, then a length
/// that counts itself), MQTT `varint after 1`, a protobuf size-delimited stream `varint`.
package struct LengthHeader: Sendable, Hashable, CustomStringConvertible {
    package static let widths = [1, 2, 3, 4, 8]

    /// The length field itself.
    package enum Field: Sendable, Hashable {
        case fixed(width: Int, bigEndian: Bool)
        case varint
    }

    package let field: Field
    /// The head bytes before the length field (a message type).
    package let after: Int
    /// Added to the field's value to give the payload's length.
    package let adjust: Int

    package init(width: Int, bigEndian: Bool = true, after: Int = 0, adjust: Int = 0) {
        self.init(field: .fixed(width: width, bigEndian: bigEndian), after: after, adjust: adjust)
    }

    package init(field: Field, after: Int = 0, adjust: Int = 0) {
        self.field = field
        self.after = after
        self.adjust = adjust
    }

    /// The longest varint: 4 bytes after a head, as MQTT allows, or 10 alone, as protobuf does.
    package var varintLimit: Int { after > 0 ? 4 : 10 }

    /// The most bytes the head and the length field take.
    package var longest: Int {
        switch field {
        case .fixed(let width, _): return after + width
        case .varint: return after + varintLimit
        }
    }

    /// The largest value the field can hold.
    package var largestValue: UInt64 {
        switch field {
        case .fixed(let width, _): return width == 8 ? .max : (UInt64(1) << (8 * UInt64(width))) - 1
        case .varint: return varintLimit * 7 >= 64 ? .max : (UInt64(1) << (7 * UInt64(varintLimit))) - 1
        }
    }

    /// The largest payload the header can announce.
    package var largest: UInt64 { payload(of: largestValue) ?? 0 }

    /// The payload length a field's `value` announces: nil when `adjust` takes it below zero.
    package func payload(of value: UInt64) -> UInt64? {
        if adjust >= 0 { return value.addingReportingOverflow(UInt64(adjust)).overflow ? .max : value + UInt64(adjust) }
        let taken = UInt64(-adjust)
        return value >= taken ? value - taken : nil
    }

    /// How many bytes the head and the length field take when they announce `count` payload
    /// bytes (a varint grows with the value; at most `longest`).
    package func size(announcing count: Int) -> Int {
        switch field {
        case .fixed(let width, _): return after + width
        case .varint:
            let value = UInt64(max(0, count - adjust))
            return after + min(varintLimit, max(1, (64 - value.leadingZeroBitCount + 6) / 7))
        }
    }

    /// The setting's words, as `set framing` takes them: `length 4 little after 1 adjust -4`.
    package var words: String {
        var words: String
        switch field {
        case .fixed(let width, let bigEndian): words = "length \(width)" + (bigEndian ? "" : " little")
        case .varint: words = "varint"
        }
        if after > 0 { words += " after \(after)" }
        if adjust != 0 { words += " adjust " + (adjust > 0 ? "+" : "") + "\(adjust)" }
        return words
    }

    /// "a 2-byte big-endian length", "a varint length after 1 head byte".
    package var description: String {
        var text: String
        switch field {
        case .fixed(let width, let bigEndian): text = "a \(width)-byte \(bigEndian ? "big" : "little")-endian length"
        case .varint: text = "a varint length"
        }
        if after > 0 { text += " after \(after) head byte" + (after == 1 ? "" : "s") }
        if adjust != 0 { text += ", adjusted by \(adjust)" }
        return text
    }
}
