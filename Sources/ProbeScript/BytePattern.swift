/// Bytes an expect compares with, where `??` in hex stood for any one byte
/// (`expect hex"90 03 00 ?? 00"`): the bytes, with a zero at each such place, and the places.
package struct BytePattern: Sendable, Hashable {
    package let bytes: [UInt8]
    /// The offsets that match any byte; empty for a plain byte string.
    package let anyByteAt: Set<Int>

    package init(_ bytes: [UInt8], anyByteAt: Set<Int> = []) {
        self.bytes = bytes
        self.anyByteAt = anyByteAt
    }

    package var count: Int { bytes.count }

    /// Whether `received` is these bytes, the wildcards taking any byte.
    package func matches(_ received: some Collection<UInt8>) -> Bool {
        anyByteAt.isEmpty ? bytes.elementsEqual(received) : firstDifference(received) == nil
    }

    /// The same for an array, compiled here for it: called from another module through the
    /// generic form above, each byte read cost an allocation (an expect judges every line).
    package func matches(_ received: [UInt8]) -> Bool {
        anyByteAt.isEmpty ? bytes == received : firstDifference(received) == nil
    }

    /// The offset of the first received byte the pattern does not take; the shorter length
    /// when one is a prefix of the other; nil when they match.
    package func firstDifference(_ received: some Collection<UInt8>) -> Int? {
        var offset = 0
        for (expected, got) in zip(bytes, received) {
            if expected != got, !anyByteAt.contains(offset) { return offset }
            offset += 1
        }
        return offset == bytes.count && offset == received.count ? nil : offset
    }

    /// As hex, two digits a byte and `??` for a wildcard: `90 03 ?? 00`.
    package var hex: String {
        bytes.indices.map { anyByteAt.contains($0) ? "??" : ByteEscaper.hex(bytes[$0]) }.joined(separator: " ")
    }

    /// As a log or a failure shows it: the escaped text, or `hex"90 03 ?? 00"` with wildcards.
    package var preview: String {
        anyByteAt.isEmpty ? ByteEscaper.preview(bytes) : "hex\"" + hex + "\""
    }
}
