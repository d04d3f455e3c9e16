import Foundation
@testable import ProbeCapture
import TestSupport
import Testing

/// pcapng read natively: either byte order, interfaces with their link types and timestamp
/// resolutions, enhanced and simple packets, other blocks skipped; and what tshark writes from
/// a classic pcap reads as the same segments. Malformed files are errors, never a crash.
@Suite struct PcapngTests {
    private static let builder = PacketBuilder()
    private static let packets = [
        builder.packet(fromClient: true, sequence: 1, flags: [.syn], at: 1_700_000_000.25),
        builder.packet(fromClient: true, sequence: 2, flags: [.psh, .ack], payload: Array("hello\r\n".utf8), at: 1_700_000_000.5),
    ]

    /// A pcapng file holding `packets` on one Ethernet interface, in `littleEndian` order, with
    /// nanosecond timestamps; a statistics block and a simple packet among them.
    static func pcapng(littleEndian: Bool, packets: [CapturedPacket] = packets) -> [UInt8] {
        func u32(_ value: UInt32) -> [UInt8] {
            let bytes = [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
            return littleEndian ? bytes : bytes.reversed()
        }
        func u16(_ value: UInt16) -> [UInt8] { littleEndian ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)] }
        func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
            let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
            let length = UInt32(12 + padded.count)
            return (type == PcapngFile.sectionHeader ? [0x0A, 0x0D, 0x0D, 0x0A] : u32(type)) + u32(length) + padded + u32(length)
        }
        var bytes = block(PcapngFile.sectionHeader, u32(0x1A2B_3C4D) + u16(1) + u16(0) + [UInt8](repeating: 0xFF, count: 8))
        // if_tsresol 9: nanoseconds; then opt_endofopt.
        bytes += block(1, u16(1) + u16(0) + u32(262_144) + u16(9) + u16(1) + [9, 0, 0, 0] + u16(0) + u16(0))
        bytes += block(5, u32(0) + u32(0) + u32(0))
        for packet in packets {
            let units = UInt64((packet.timestamp * 1e9).rounded())
            bytes += block(6, u32(0) + u32(UInt32(units >> 32)) + u32(UInt32(units & 0xFFFF_FFFF)) + u32(UInt32(packet.data.count))
                           + u32(UInt32(packet.originalLength)) + packet.data)
        }
        bytes += block(3, u32(UInt32(packets[0].data.count)) + packets[0].data)
        return bytes
    }

    private func segments(_ bytes: [UInt8]) throws -> [TCPSegment] {
        try PcapFile.packets(in: bytes).compactMap(PacketDecoder.segment)
    }

    @Test(arguments: [true, false]) func bothByteOrdersRead(littleEndian: Bool) throws {
        let read = try segments(Self.pcapng(littleEndian: littleEndian))
        #expect(read.count == 3, "two enhanced packets and a simple one")
        #expect(read[0].flags == [.syn] && abs(read[0].timestamp - 1_700_000_000.25) < 1e-6)
        #expect(read[1].payload == Array("hello\r\n".utf8) && abs(read[1].timestamp - 1_700_000_000.5) < 1e-6)
        #expect(read[1].sourcePort == 40000 && read[1].destinationPort == 7000)
        #expect(read[2].timestamp == 0 && read[2].flags == [.syn], "a simple packet has no timestamp")
    }

    @Test func malformedFilesAreErrors() throws {
        let good = Self.pcapng(littleEndian: true)
        let cases: [([UInt8], String)] = [
            (Array(good.prefix(good.count - 10)), "the pcap file is truncated in the record at byte"),
            (Array(good.prefix(32)) + [0x0D, 0, 0, 0] + Array(good.dropFirst(36)), "the capture is malformed: a block at byte 28 of 13 bytes"),
            (Array(good.prefix(8)) + [1, 2, 3, 4] + Array(good.dropFirst(12)), "a section header at byte 0 with the byte-order magic 0x4030201"),
        ]
        for (bytes, message) in cases {
            #expect(throws: PcapFile.ReadError.self, "\(message)") { try PcapFile.packets(in: bytes) }
            do { _ = try PcapFile.packets(in: bytes) } catch { #expect("\(error)".contains(message), "\(error)") }
        }
        // A packet on an interface no description names, and one claiming more bytes than its block.
        var orphan = good
        let firstPacket = try #require(Self.offsetOfFirstEnhancedPacket(good))
        orphan[firstPacket + 8] = 7
        do { _ = try PcapFile.packets(in: orphan) } catch { #expect("\(error)".contains("on interface 7, which no interface description names"), "\(error)") }
        var overclaiming = good
        overclaiming[firstPacket + 20] = 0xFF
        overclaiming[firstPacket + 21] = 0xFF
        do { _ = try PcapFile.packets(in: overclaiming) } catch { #expect("\(error)".contains("more than its block holds"), "\(error)") }
    }

    private static func offsetOfFirstEnhancedPacket(_ bytes: [UInt8]) -> Int? {
        var offset = 0
        while offset + 8 <= bytes.count {
            let type = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
            if type == 6 { return offset }
            offset += Int(UInt32(bytes[offset + 4]) | UInt32(bytes[offset + 5]) << 8 | UInt32(bytes[offset + 6]) << 16 | UInt32(bytes[offset + 7]) << 24)
        }
        return nil
    }

    /// tshark's pcapng of a classic pcap holds the same segments.
    @Test(.tshark) func tsharksPcapngReadsAsTheClassicPcap() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-pcapng-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let classic = directory.appendingPathComponent("c.pcap"), next = directory.appendingPathComponent("c.pcapng")
        try Data(PacketBuilder.pcapFile(Self.packets, linkType: PacketDecoder.ethernet)).write(to: classic)
        try PcapngConversion.convert(classic, to: next)
        let converted = try PcapFile.segments(atPath: next.path)
        #expect(converted == (try PcapFile.segments(atPath: classic.path)))
        #expect(converted.count == 2 && converted[1].payload == Array("hello\r\n".utf8))
    }
}
