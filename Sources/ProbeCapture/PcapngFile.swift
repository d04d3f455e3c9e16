/// Reads pcapng, the format tshark and Wireshark write by default: section headers in either
/// byte order, interface descriptions (each with its link type and timestamp resolution), and
/// enhanced, simple and obsolete packet blocks; other blocks are skipped.
package enum PcapngFile {
    /// The section header block's type, the same in either byte order.
    static let sectionHeader: UInt32 = 0x0A0D_0D0A

    /// True when `bytes` start with a section header block.
    static func isPcapng(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 4 && UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)) == sectionHeader
    }

    private struct Interface {
        var linkType: UInt32
        var snapLength: Int
        /// Timestamp units a second.
        var unitsPerSecond: Double
    }

    /// Calls `body` with each packet record from the block at byte `start` on (blocks before it
    /// are read for their sections and interfaces only); returns where the blocks it read end.
    /// A block cut short is an error unless `allowTruncatedTail`.
    static func forEachRecord(in bytes: UnsafeRawBufferPointer, from start: Int, allowTruncatedTail: Bool,
                              _ body: (PcapFile.Record) throws -> Void) throws -> Int {
        var littleEndian = true
        var interfaces: [Interface] = []
        var offset = 0
        func u32(_ at: Int) -> UInt32 {
            let value = bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)
            return littleEndian ? UInt32(littleEndian: value) : UInt32(bigEndian: value)
        }
        func u16(_ at: Int) -> UInt16 {
            let value = bytes.loadUnaligned(fromByteOffset: at, as: UInt16.self)
            return littleEndian ? UInt16(littleEndian: value) : UInt16(bigEndian: value)
        }
        while offset < bytes.count {
            guard offset + 12 <= bytes.count else {
                if allowTruncatedTail { break }
                throw PcapFile.ReadError.truncated(recordAt: offset)
            }
            // The section header's type reads the same in either byte order; the others in the section's.
            let type = u32(offset)
            if type == sectionHeader {
                let magic = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
                switch magic {
                case 0x1A2B_3C4D: littleEndian = true
                case 0x4D3C_2B1A: littleEndian = false
                default: throw PcapFile.ReadError.malformed("a section header at byte \(offset) with the byte-order magic 0x\(String(magic, radix: 16))")
                }
                interfaces = []
            }
            let length = Int(u32(offset + 4))
            guard length >= 12, length % 4 == 0 else {
                throw PcapFile.ReadError.malformed("a block at byte \(offset) of \(length) bytes (a block takes at least 12, in fours)")
            }
            guard offset + length <= bytes.count else {
                if allowTruncatedTail { break }
                throw PcapFile.ReadError.truncated(recordAt: offset)
            }
            let bodyStart = offset + 8, bodyEnd = offset + length - 4
            switch type {
            case 1: // Interface description: link type, snap length, options.
                guard bodyEnd - bodyStart >= 8 else { throw PcapFile.ReadError.malformed("an interface description at byte \(offset) too short for its fields") }
                var interface = Interface(linkType: UInt32(u16(bodyStart)), snapLength: Int(u32(bodyStart + 4)), unitsPerSecond: 1e6)
                var option = bodyStart + 8
                while option + 4 <= bodyEnd {
                    let (code, size) = (u16(option), Int(u16(option + 2)))
                    if code == 0 || option + 4 + size > bodyEnd { break }
                    if code == 9, size >= 1 { // if_tsresol: a power of ten, or of two with the high bit
                        let resolution = bytes[option + 4]
                        interface.unitsPerSecond = resolution & 0x80 == 0 ? pow10(Int(resolution)) : Double(sign: .plus, exponent: Int(resolution & 0x7F), significand: 1)
                    }
                    option += 4 + (size + 3) / 4 * 4
                }
                interfaces.append(interface)
            case 6, 2: // Enhanced packet; obsolete packet (a 2-byte interface id and a drop count).
                guard bodyEnd - bodyStart >= 20 else { throw PcapFile.ReadError.malformed("a packet block at byte \(offset) too short for its fields") }
                let index = type == 6 ? Int(u32(bodyStart)) : Int(u16(bodyStart))
                guard index < interfaces.count else {
                    throw PcapFile.ReadError.malformed("a packet at byte \(offset) on interface \(index), which no interface description names")
                }
                let captured = Int(u32(bodyStart + 12))
                guard bodyStart + 20 + captured <= bodyEnd else {
                    throw PcapFile.ReadError.malformed("a packet at byte \(offset) claims \(captured) captured bytes, more than its block holds")
                }
                if offset >= start {
                    let units = Double(UInt64(u32(bodyStart + 4)) << 32 | UInt64(u32(bodyStart + 8)))
                    try body(PcapFile.Record(timestamp: units / interfaces[index].unitsPerSecond, linkType: interfaces[index].linkType,
                                             data: UnsafeRawBufferPointer(rebasing: bytes[(bodyStart + 20)..<(bodyStart + 20 + captured)]),
                                             originalLength: Int(u32(bodyStart + 16))))
                }
            case 3: // Simple packet: on interface 0, no timestamp.
                guard let interface = interfaces.first, bodyEnd - bodyStart >= 4 else {
                    throw PcapFile.ReadError.malformed("a simple packet at byte \(offset) with no interface described before it")
                }
                let original = Int(u32(bodyStart))
                let captured = min(original, bodyEnd - bodyStart - 4, interface.snapLength == 0 ? Int.max : interface.snapLength)
                if offset >= start {
                    try body(PcapFile.Record(timestamp: 0, linkType: interface.linkType,
                                             data: UnsafeRawBufferPointer(rebasing: bytes[(bodyStart + 4)..<(bodyStart + 4 + captured)]),
                                             originalLength: original))
                }
            default:
                break
            }
            offset += length
        }
        return offset
    }

    private static func pow10(_ exponent: Int) -> Double {
        (0..<min(exponent, 30)).reduce(1.0) { value, _ in value * 10 }
    }
}
