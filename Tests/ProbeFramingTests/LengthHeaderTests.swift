import ProbeFraming
import ProbeScript
import Testing

/// Length fields anywhere: every width in both byte orders, head bytes before the field, an
/// adjusted length, and varints of 1 to 10 bytes; and the headers that cannot be, each named.
@Suite struct LengthHeaderTests {
    @Test(arguments: LengthHeader.widths)
    func everyWidthEncodesAndReadsBothOrders(width: Int) throws {
        for bigEndian in [true, false] {
            let header = LengthHeader(width: width, bigEndian: bigEndian)
            let count = width == 1 ? 200 : 0x0102 + (width > 2 ? 0x030000 : 0)
            let bytes = try #require(header.encode(count))
            #expect(bytes.count == width)
            #expect((bigEndian ? bytes.last : bytes.first) == UInt8(count & 0xFF), "the low byte is last big-endian, first little")
            #expect(header.read(bytes + [9, 9]) == .header(size: width, payload: UInt64(count)))
            #expect(header.read(bytes.dropLast()) == .needMore)
            #expect(header.encode(Int(clamping: header.largest)) != nil)
            if width < 8 { #expect(header.encode(Int(header.largest) + 1) == nil, "\(width) bytes cannot hold more") }
        }
        #expect(LengthHeader(width: 3).largest == 0xFF_FFFF)
        #expect(LengthHeader(width: 8).largest == .max)
    }

    @Test func headBytesComeBeforeTheFieldAndAdjustCountsTheFieldItself() throws {
        // PostgreSQL: a type byte, then a 4-byte length that counts itself.
        let postgres = LengthHeader(width: 4, after: 1, adjust: -4)
        #expect(postgres.encode(5, head: [0x51]) == [0x51, 0, 0, 0, 9])
        #expect(postgres.encode(5) == [0, 0, 0, 0, 9], "without a head, N zero bytes")
        #expect(postgres.encode(5, head: [1, 2]) == nil, "a head must be exactly `after` bytes")
        #expect(postgres.read([0x5a, 0, 0, 0, 5, 0x49]) == .header(size: 5, payload: 1))
        #expect(postgres.read([0x5a, 0, 0, 0]) == .needMore)
        #expect(postgres.read([0x5a, 0, 0, 0, 3]) == .invalid(#"the length field hex"00 00 00 03" holds 3, below zero after adjust -4"#))
        #expect(postgres.largest == UInt64(UInt32.max) - 4)
        // TLS records: three head bytes (type, version), then a 2-byte length.
        #expect(LengthHeader(width: 2, after: 3).read([0x17, 3, 3, 0, 0x20]) == .header(size: 5, payload: 32))
        #expect(LengthHeader(width: 1, adjust: 2).encode(0) == nil, "a payload shorter than adjust cannot be announced")
        #expect(LengthHeader(width: 1, adjust: 2).read([0]) == .header(size: 1, payload: 2))
    }

    @Test func varintsOfOneToTenBytes() throws {
        let protobuf = LengthHeader(field: .varint)
        #expect(protobuf.varintLimit == 10)
        #expect(protobuf.encode(0) == [0])
        #expect(protobuf.encode(127) == [0x7F])
        #expect(protobuf.encode(128) == [0x80, 0x01])
        #expect(protobuf.encode(300) == [0xAC, 0x02])
        for groups in 1...9 {
            let value = Int((UInt64(1) << UInt64(7 * groups)) - 1)
            let bytes = try #require(protobuf.encode(value))
            #expect(bytes.count == groups)
            #expect(protobuf.read(bytes) == .header(size: groups, payload: UInt64(value)))
            #expect(protobuf.read(bytes.dropLast()) == .needMore)
        }
        let ten: [UInt8] = [UInt8](repeating: 0xFF, count: 9) + [0x01]
        #expect(protobuf.read(ten) == .header(size: 10, payload: .max))
        #expect(protobuf.read([UInt8](repeating: 0x80, count: 10)) == .invalid(#"a varint length longer than 10 bytes: hex"80 80 80 80 80 80 80 80 80 80""#))
    }

    @Test func mqttsVarintHasAHeadAndAtMostFourBytes() throws {
        let mqtt = LengthHeader(field: .varint, after: 1)
        #expect(mqtt.varintLimit == 4)
        #expect(mqtt.encode(200, head: [0x30]) == [0x30, 0xC8, 0x01])
        #expect(mqtt.read([0x30, 0xC8, 0x01]) == .header(size: 3, payload: 200))
        #expect(mqtt.read([0xD0, 0x00]) == .header(size: 2, payload: 0))
        #expect(mqtt.largest == 268_435_455)
        #expect(mqtt.encode(268_435_456) == nil)
        #expect(mqtt.read([0x30, 0xFF, 0xFF, 0xFF]) == .needMore, "a fourth byte may still end it")
        #expect(mqtt.read([0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]) == .invalid(#"a varint length longer than 4 bytes: hex"30 ff ff ff ff""#))
    }

    @Test func theWordsAndTheDescription() {
        #expect(LengthHeader(width: 4, after: 1, adjust: -4).words == "length 4 after 1 adjust -4")
        #expect(LengthHeader(width: 2, bigEndian: false, adjust: 2).words == "length 2 little adjust +2")
        #expect(LengthHeader(field: .varint, after: 1).words == "varint after 1")
        #expect(LengthHeader(width: 2).description == "a 2-byte big-endian length")
        #expect(LengthHeader(field: .varint, after: 1).description == "a varint length after 1 head byte")
        #expect(LengthHeader(width: 4, after: 1, adjust: -4).description == "a 4-byte big-endian length after 1 head byte, adjusted by -4")
    }

    /// The language's size of a header (what `tcpprobe check` counts for `split at`) is what the
    /// codec writes, for every form and lengths across each varint step.
    @Test func theSizeTheLanguageCountsIsWhatTheCodecWrites() {
        let headers = LengthHeader.widths.map { LengthHeader(width: $0) }
            + [LengthHeader(width: 4, after: 1, adjust: -4), LengthHeader(field: .varint), LengthHeader(field: .varint, after: 1),
               LengthHeader(field: .varint, after: 2, adjust: 3)]
        let counts = [0, 1, 3, 4, 126, 127, 128, 129, 16_383, 16_384, 2_097_151, 2_097_152, 268_435_455]
        for header in headers {
            for count in counts {
                guard let written = header.encode(count) else { continue }
                #expect(header.size(announcing: count) == written.count, "\(header.words), \(count) bytes")
            }
        }
    }
}
