#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// Finds a byte sequence in a buffer that grows between searches, remembering how far it
/// looked, so a line arriving in many pieces is scanned once, not once per piece.
package struct ByteSearch: Sendable {
    /// Bytes already searched without finding the needle.
    private var searched = 0

    package init() {}

    /// Index of `needle` in the readable bytes, searching at most `limit` bytes.
    package mutating func find(_ needle: [UInt8], in buffer: ByteBuffer, limit: Int) -> Int? {
        let count = min(buffer.readableBytes, limit)
        guard count >= needle.count, !needle.isEmpty else { return nil }
        let from = max(0, searched - needle.count + 1)
        let found = buffer.withUnsafeReadableBytes { Self.firstIndex(of: needle, in: $0, from: from, to: count) }
        searched = found == nil ? count : 0
        return found
    }

    /// Index of the first `needle` in `bytes[from..<end]`: memchr finds candidates for its
    /// first byte, and the rest is compared there. The one search of lines, live and captured.
    package static func firstIndex(of needle: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int, to end: Int) -> Int? {
        guard let base = bytes.baseAddress, let first = needle.first else { return nil }
        var offset = from
        while offset + needle.count <= end, let hit = memchr(base + offset, Int32(first), end - offset) {
            let index = base.distance(to: UnsafeRawPointer(hit))
            if index + needle.count > end { return nil }
            if (1..<needle.count).allSatisfy({ bytes[index + $0] == needle[$0] }) { return index }
            offset = index + 1
        }
        return nil
    }
}
