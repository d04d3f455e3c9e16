/// Reads big-endian integers and runs of bytes off the front of a byte array, for the TLS
/// structures tcpprobe reads; each read is nil when too few bytes are left.
struct ByteReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func u8() -> UInt8? { bytes(1).map { $0[0] } }

    mutating func u16() -> UInt16? { bytes(2).map { UInt16($0[0]) << 8 | UInt16($0[1]) } }

    mutating func u24() -> Int? { bytes(3).map { Int($0[0]) << 16 | Int($0[1]) << 8 | Int($0[2]) } }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, bytes.count - index >= count else { return nil }
        defer { index += count }
        return Array(bytes[index..<index + count])
    }
}
