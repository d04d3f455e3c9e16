#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// Finds a byte sequence in a buffer that grows between searches, remembering how far it
/// looked, so a line arriving in many pieces is scanned once, not once per piece.
public struct ByteSearch: Sendable {
    /// Bytes already searched without finding the needle.
    private var searched = 0

    public init() {}

    /// Index of `needle` in the readable bytes, searching at most `limit` bytes.
    public mutating func find(_ needle: [UInt8], in buffer: ByteBuffer, limit: Int) -> Int? {
        let count = min(buffer.readableBytes, limit)
        guard count >= needle.count, !needle.isEmpty else { return nil }
        let from = max(0, searched - needle.count + 1)
        let first = Int32(needle[0])
        let found: Int? = buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress else { return nil }
            var offset = from
            // memchr finds candidates for the first byte; the rest of the needle is compared there.
            while offset + needle.count <= count, let hit = memchr(base + offset, first, count - offset) {
                let index = base.distance(to: UnsafeRawPointer(hit))
                if index + needle.count > count { return nil }
                if (1..<needle.count).allSatisfy({ bytes[index + $0] == needle[$0] }) { return index }
                offset = index + 1
            }
            return nil
        }
        searched = found == nil ? count : 0
        return found
    }
}
