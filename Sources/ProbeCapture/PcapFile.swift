import FoundationEssentials

/// Reads capture files: the classic pcap format (microsecond or nanosecond, either byte
/// order), and pcapng through `PcapngFile`.
package enum PcapFile {
    package enum ReadError: Error, CustomStringConvertible {
        /// The file could not be opened or mapped, in the system's words.
        case unreadable(reason: String)
        case tooShort
        case badMagic(UInt32)
        case truncated(recordAt: Int)
        case tooLarge(payloadLimit: Int)
        case malformed(String)

        package var description: String {
            switch self {
            case .unreadable(let reason): return "cannot be read: \(reason)"
            case .tooShort: return "not a pcap file: shorter than its 24-byte header"
            case .badMagic(let magic): return "not a pcap or pcapng file: magic number 0x\(String(magic, radix: 16))"
            case .malformed(let what): return "the capture is malformed: \(what)"
            case .truncated(let offset): return "the pcap file is truncated in the record at byte \(offset)"
            case .tooLarge(let limit):
                return "the capture holds more than \(limit / 1_048_576) MiB of TCP payload, more than wire checks load into memory (an eighth of this machine's): judge a shorter transfer"
            }
        }
    }

    /// One record, valid only while the visitor that receives it runs.
    package struct Record {
        /// Seconds since the epoch, with nanosecond resolution where the file has it.
        package var timestamp: Double
        package var linkType: UInt32
        package var data: UnsafeRawBufferPointer
        package var originalLength: Int
    }

    /// The packets of a pcap file's bytes. A truncated last record is an error unless
    /// `allowTruncatedTail` (a capture still being written).
    package static func packets(in bytes: [UInt8], allowTruncatedTail: Bool = false) throws -> [CapturedPacket] {
        var packets: [CapturedPacket] = []
        try bytes.withUnsafeBytes { raw in
            _ = try forEachRecord(in: raw, allowTruncatedTail: allowTruncatedTail) { record in
                packets.append(CapturedPacket(timestamp: record.timestamp, linkType: record.linkType,
                                              data: Array(record.data), originalLength: record.originalLength))
            }
        }
        return packets
    }

    /// How much TCP payload `segments(atPath:)` copies before it gives up: judging a connection
    /// holds its payloads and their reassembled stream, about three times this at the peak.
    package static let defaultPayloadLimit = Int(clamping: ProcessInfo.processInfo.physicalMemory / 8)

    /// The TCP segments of the pcap file at `path`. The file is mapped, not read, and only the
    /// segments are copied out of it, so a capture of gigabytes costs its payloads once; past
    /// `payloadLimit` bytes of payload it throws `tooLarge` rather than exhaust memory. With a
    /// `payloadPrefix` each segment keeps only that much of its payload (its `length` stays).
    package static func segments(atPath path: String, allowTruncatedTail: Bool = false,
                                payloadLimit: Int = defaultPayloadLimit, payloadPrefix: Int = .max) throws -> [TCPSegment] {
        var reader = PcapSegmentReader(path: path, payloadPrefix: payloadPrefix)
        try reader.read(allowTruncatedTail: allowTruncatedTail, payloadLimit: payloadLimit)
        return reader.segments
    }

    /// The file header's length: records start after it.
    package static let headerLength = 24

    /// Calls `body` with each record of a pcap or pcapng file's bytes, in file order, from the
    /// record at byte `start` (the first, by default); returns where the records it read end.
    @discardableResult
    package static func forEachRecord(in bytes: UnsafeRawBufferPointer, from start: Int = 0, allowTruncatedTail: Bool,
                                     _ body: (Record) throws -> Void) throws -> Int {
        if PcapngFile.isPcapng(bytes) { return try PcapngFile.forEachRecord(in: bytes, from: start, allowTruncatedTail: allowTruncatedTail, body) }
        guard bytes.count >= headerLength else { throw ReadError.tooShort }
        let magicLE = UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self))
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
            let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            return littleEndian ? UInt32(littleEndian: value) : UInt32(bigEndian: value)
        }
        let linkType = u32(20) & 0x0FFF_FFFF
        var offset = max(start, headerLength)
        while offset < bytes.count {
            guard offset + 16 <= bytes.count else {
                if allowTruncatedTail { break }
                throw ReadError.truncated(recordAt: offset)
            }
            let seconds = Double(u32(offset))
            let fraction = Double(u32(offset + 4)) / (nanoseconds ? 1e9 : 1e6)
            let included = Int(u32(offset + 8))
            guard offset + 16 + included <= bytes.count else {
                if allowTruncatedTail { break }
                throw ReadError.truncated(recordAt: offset)
            }
            try body(Record(timestamp: seconds + fraction, linkType: linkType,
                            data: UnsafeRawBufferPointer(rebasing: bytes[(offset + 16)..<(offset + 16 + included)]),
                            originalLength: Int(u32(offset + 12))))
            offset += 16 + included
        }
        return offset
    }
}
