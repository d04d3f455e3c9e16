/// The length header of a length-prefixed message (`set framing length 1|2|4|8 [big|little]`):
/// how many bytes it takes and their order.
public struct LengthHeader: Sendable, Hashable, CustomStringConvertible {
    public static let widths = [1, 2, 4, 8]

    public var width: Int
    public var bigEndian: Bool

    public init(width: Int, bigEndian: Bool = true) {
        self.width = width
        self.bigEndian = bigEndian
    }

    /// The largest length the header can announce.
    public var largest: UInt64 { width == 8 ? .max : (UInt64(1) << (8 * UInt64(width))) - 1 }

    /// The header announcing `count` bytes; nil when it does not fit.
    public func encode(_ count: Int) -> [UInt8]? {
        guard count >= 0, UInt64(count) <= largest else { return nil }
        let bytes = (0..<width).map { UInt8(truncatingIfNeeded: UInt64(count) >> (8 * UInt64($0))) }
        return bigEndian ? bytes.reversed() : bytes
    }

    /// The length the first `width` of `bytes` announce (as many as there are: pass `width`).
    public func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64 {
        let ordered = bigEndian ? Array(bytes.prefix(width)) : Array(bytes.prefix(width).reversed())
        return ordered.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// "a 2-byte big-endian length".
    public var description: String { "a \(width)-byte \(bigEndian ? "big" : "little")-endian length" }
}
