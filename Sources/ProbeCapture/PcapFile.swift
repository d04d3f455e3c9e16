/// Reads the classic pcap file format (microsecond or nanosecond, either byte order).
public enum PcapFile {
    public enum ReadError: Error, CustomStringConvertible {
        case tooShort
        case badMagic(UInt32)
        case truncated(recordAt: Int)

        public var description: String {
            switch self {
            case .tooShort: return "not a pcap file: shorter than its 24-byte header"
            case .badMagic(let magic): return "not a pcap file: magic number 0x\(String(magic, radix: 16))"
            case .truncated(let offset): return "the pcap file is truncated in the record at byte \(offset)"
            }
        }
    }

    /// The packets of a pcap file's bytes. A truncated last record is an error unless
    /// `allowTruncatedTail` (a capture still being written).
    public static func packets(in bytes: [UInt8], allowTruncatedTail: Bool = false) throws -> [CapturedPacket] {
        guard bytes.count >= 24 else { throw ReadError.tooShort }
        let magicLE = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
        let littleEndian: Bool
        let nanoseconds: Bool
        switch magicLE {
        case 0xA1B2_C3D4: (littleEndian, nanoseconds) = (true, false)
        case 0xA1B2_3C4D: (littleEndian, nanoseconds) = (true, true)
        case 0xD4C3_B2A1: (littleEndian, nanoseconds) = (false, false)
        case 0x4D3C_B2A1: (littleEndian, nanoseconds) = (false, true)
        default: throw ReadError.badMagic(magicLE)
        }
        func u32(_ offset: Int) -> UInt32 {
            let b0 = UInt32(bytes[offset]), b1 = UInt32(bytes[offset + 1]), b2 = UInt32(bytes[offset + 2]), b3 = UInt32(bytes[offset + 3])
            return littleEndian ? b0 | b1 << 8 | b2 << 16 | b3 << 24 : b3 | b2 << 8 | b1 << 16 | b0 << 24
        }
        let linkType = u32(20) & 0x0FFF_FFFF
        var packets: [CapturedPacket] = []
        var offset = 24
        while offset < bytes.count {
            guard offset + 16 <= bytes.count else {
                if allowTruncatedTail { break }
                throw ReadError.truncated(recordAt: offset)
            }
            let seconds = Double(u32(offset))
            let fraction = Double(u32(offset + 4)) / (nanoseconds ? 1e9 : 1e6)
            let included = Int(u32(offset + 8))
            let original = Int(u32(offset + 12))
            guard offset + 16 + included <= bytes.count else {
                if allowTruncatedTail { break }
                throw ReadError.truncated(recordAt: offset)
            }
            packets.append(CapturedPacket(timestamp: seconds + fraction, linkType: linkType,
                                          data: Array(bytes[(offset + 16)..<(offset + 16 + included)]), originalLength: original))
            offset += 16 + included
        }
        return packets
    }
}
