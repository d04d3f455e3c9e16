import NIOCore

extension ByteBuffer {
    /// Reads `length` readable bytes, which the caller knows are there; when they are the
    /// bytes `expected`, returns that array itself rather than a copy of them.
    mutating func readBytes(length: Int, sharing expected: [UInt8]?) -> [UInt8] {
        if let expected, expected.count == length, readableBytesView.prefix(length).elementsEqual(expected) {
            moveReaderIndex(forwardBy: length)
            return expected
        }
        return readBytes(length: length)!
    }
}
