#if canImport(Glibc)
import Glibc
#endif
import NIOCore

extension ByteBuffer {
    /// Reads `length` readable bytes, which the caller knows are there; when they are the
    /// bytes `expected`, returns that array itself rather than a copy of them.
    mutating func readBytes(length: Int, sharing expected: [UInt8]?) -> [UInt8] {
        // Compared with `memcmp`: through the buffer's view, a byte at a time, it cost ten
        // times more, and a raw buffer's `elementsEqual` still a step a byte.
        if let expected, expected.count == length,
           length == 0 || withUnsafeReadableBytes({ readable in expected.withUnsafeBytes { memcmp(readable.baseAddress!, $0.baseAddress!, length) == 0 } }) {
            moveReaderIndex(forwardBy: length)
            return expected
        }
        return readBytes(length: length)!
    }
}
