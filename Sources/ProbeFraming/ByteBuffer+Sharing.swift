import NIOCore

extension ByteBuffer {
    /// Reads `length` readable bytes, which the caller knows are there; when they are the
    /// bytes `expected`, returns that array itself rather than a copy of them.
    mutating func readBytes(length: Int, sharing expected: [UInt8]?) -> [UInt8] {
        // Compared as raw memory: through the buffer's view, a byte at a time cost ten times more.
        if let expected, expected.count == length,
           withUnsafeReadableBytes({ readable in expected.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: readable.prefix(length)).elementsEqual($0) } }) {
            moveReaderIndex(forwardBy: length)
            return expected
        }
        return readBytes(length: length)!
    }
}
