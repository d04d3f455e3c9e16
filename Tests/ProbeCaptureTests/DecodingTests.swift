import Foundation
import Testing
@testable import ProbeCapture

@Suite struct DecodingTests {
    @Test(arguments: [PacketDecoder.ethernet, PacketDecoder.null, PacketDecoder.linuxSLL])
    func everyLoopbackLinkTypeAndBothIPVersionsDecode(_ linkType: UInt32) throws {
        for ipv6 in [false, true] {
            let builder = PacketBuilder(linkType: linkType, ipv6: ipv6)
            let packet = builder.packet(fromClient: true, sequence: 7, flags: [.psh, .ack], payload: Array("hi".utf8), window: 0, at: 1.5)
            let segment = try #require(PacketDecoder.segment(packet))
            #expect(segment.sourcePort == 40000 && segment.destinationPort == 7000)
            #expect(segment.sequence == 7)
            #expect(segment.flags == [.psh, .ack])
            #expect(segment.window == 0)
            #expect(segment.payload == Array("hi".utf8))
            #expect(segment.sourceAddress == (ipv6 ? "::1" : "127.0.0.1"))
        }
    }

    @Test(arguments: [([127, 0, 0, 1], "127.0.0.1"), ([10, 9, 255, 100], "10.9.255.100"), ([0, 0, 0, 0], "0.0.0.0"),
                      ([192, 168, 20, 199], "192.168.20.199"), ([255, 255, 255, 255], "255.255.255.255")] as [([UInt8], String)])
    func ipv4AddressesReadInDottedDecimal(_ octets: [UInt8], _ text: String) throws {
        // A raw IPv4 packet: a 20-byte header (protocol 6, total length 40) and a bare TCP header.
        var packet: [UInt8] = [0x45, 0, 0, 40, 0, 0, 0, 0, 64, 6, 0, 0] + octets + [127, 0, 0, 1]
        packet += [0x9C, 0x40, 0x1B, 0x58, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x10, 0x01, 0x00, 0, 0, 0, 0]
        let segment = try #require(packet.withUnsafeBytes { PacketDecoder.segment(linkType: PacketDecoder.raw, data: $0, timestamp: 0) })
        #expect(segment.sourceAddress == text)
        #expect(segment.destinationAddress == "127.0.0.1")
        #expect(segment.sourcePort == 40000 && segment.destinationPort == 7000)
    }

    @Test func aPacketCutBySnapLengthKeepsItsLengthFromTheIPHeader() throws {
        for ipv6 in [false, true] {
            let builder = PacketBuilder(linkType: PacketDecoder.ethernet, ipv6: ipv6)
            var packet = builder.packet(fromClient: true, sequence: 7, flags: [.psh, .ack], payload: Array(repeating: 0x61, count: 1000), at: 1)
            packet.data = Array(packet.data.prefix(packet.data.count - 990)) // 10 payload bytes kept
            let segment = try #require(PacketDecoder.segment(packet))
            #expect(segment.length == 1000)
            #expect(segment.payload.count == 10 && segment.isTruncated)
        }
    }

    @Test func pcapFilesRoundTripAndBadFilesAreErrors() throws {
        let builder = PacketBuilder()
        let packets = [builder.packet(fromClient: true, sequence: 1, flags: .syn, at: 10.25),
                       builder.packet(fromClient: false, sequence: 2, flags: [.syn, .ack], at: 10.5)]
        let file = PacketBuilder.pcapFile(packets, linkType: PacketDecoder.ethernet)
        let read = try PcapFile.packets(in: file)
        #expect(read.count == 2)
        #expect(read.map(\.data) == packets.map(\.data))
        #expect(abs(read[0].timestamp - 10.25) < 1e-6)
        #expect(throws: PcapFile.ReadError.self) { try PcapFile.packets(in: Array(file.dropLast(3))) }
        #expect(try PcapFile.packets(in: Array(file.dropLast(3)), allowTruncatedTail: true).count == 1)
        #expect(throws: PcapFile.ReadError.self) { try PcapFile.packets(in: [UInt8](repeating: 7, count: 40)) }
    }

    @Test func readingStopsAtThePayloadLimitOrKeepsOnlyAPrefixOfEachPayload() throws {
        let builder = PacketBuilder()
        let packets = (0..<3).map { builder.packet(fromClient: true, sequence: 1 + 5 * UInt32($0), flags: .ack, payload: Array("hello".utf8), at: Double($0)) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("limit-\(UUID()).pcap").path
        try Data(PacketBuilder.pcapFile(packets, linkType: PacketDecoder.ethernet)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try PcapFile.segments(atPath: path, payloadLimit: 15).count == 3)
        let error = #expect(throws: PcapFile.ReadError.self) { try PcapFile.segments(atPath: path, payloadLimit: 14) }
        guard case .tooLarge(14)? = error else { Issue.record("expected tooLarge, got \(String(describing: error))"); return }
        #expect(PcapFile.ReadError.tooLarge(payloadLimit: 14 << 20).description.hasPrefix("the capture holds more than 14 MiB of TCP payload"))
        // Checks of lengths and flags read only a prefix of each payload, which the limit counts.
        let prefixed = try PcapFile.segments(atPath: path, payloadLimit: 14, payloadPrefix: 2)
        #expect(prefixed.map(\.payload) == Array(repeating: Array("he".utf8), count: 3))
        #expect(prefixed.map(\.length) == [5, 5, 5])
        #expect(DirectionTrace(segments: prefixed).byteCount == 15)
    }

    @Test func aGrowingFileIsReadAPartAtATime() throws {
        let builder = PacketBuilder()
        let packets = (0..<4).map { builder.packet(fromClient: true, sequence: 1 + 5 * UInt32($0), flags: .ack, payload: Array("hel\($0)o".utf8), at: Double($0)) }
        let whole = PacketBuilder.pcapFile(packets, linkType: PacketDecoder.ethernet)
        let firstTwo = PacketBuilder.pcapFile(Array(packets.prefix(2)), linkType: PacketDecoder.ethernet)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("growing-\(UUID()).pcap")
        defer { try? FileManager.default.removeItem(at: url) }
        // Two records, and the third cut short as if still being written.
        try Data(whole.prefix(firstTwo.count + 30)).write(to: url)
        var reader = PcapSegmentReader(path: url.path, payloadPrefix: 3)
        try reader.read(allowTruncatedTail: true)
        #expect(reader.segments.map(\.sequence) == [1, 6])
        try Data(whole).write(to: url)
        try reader.read(allowTruncatedTail: true)
        #expect(reader.segments == (try PcapFile.segments(atPath: url.path, payloadPrefix: 3)))
        #expect(reader.segments.map(\.payload) == [Array("hel".utf8), Array("hel".utf8), Array("hel".utf8), Array("hel".utf8)])
        try reader.read(allowTruncatedTail: true)
        #expect(reader.segments.count == 4, "nothing new, nothing added")
        // The payload limit counts every part read, and a refused part leaves the reader as it was.
        var limited = PcapSegmentReader(path: url.path)
        #expect(throws: PcapFile.ReadError.self) { try limited.read(allowTruncatedTail: true, payloadLimit: 19) }
        #expect(limited.segments.isEmpty)
    }

    @Test func reassemblyHandlesRetransmissionsReorderingAndHoles() {
        let builder = PacketBuilder()
        let packets = [
            builder.packet(fromClient: false, sequence: 5000, flags: [.syn, .ack], at: 0),
            builder.packet(fromClient: false, sequence: 5006, flags: .ack, payload: Array("world".utf8), at: 0.2), // out of order
            builder.packet(fromClient: false, sequence: 5001, flags: .ack, payload: Array("hello".utf8), at: 0.1),
            builder.packet(fromClient: false, sequence: 5001, flags: .ack, payload: Array("hello".utf8), at: 0.3), // retransmission
        ]
        let trace = DirectionTrace(segments: packets.compactMap(PacketDecoder.segment))
        #expect(trace.stream == Array("helloworld".utf8))
        #expect(trace.retransmissions == 1)
        #expect(trace.dataSegments.map(\.range) == [0..<5, 5..<10])
        #expect(trace.holes.isEmpty)

        let gap = DirectionTrace(segments: [packets[0], packets[1]].compactMap(PacketDecoder.segment))
        #expect(gap.holes == [0..<5])
    }

    @Test func sequenceNumbersWrapAround() {
        let builder = PacketBuilder()
        let packets = [
            builder.packet(fromClient: false, sequence: UInt32.max - 2, flags: .ack, payload: Array("abc".utf8), at: 0),
            builder.packet(fromClient: false, sequence: 0, flags: .ack, payload: Array("def".utf8), at: 0.1),
        ]
        #expect(DirectionTrace(segments: packets.compactMap(PacketDecoder.segment)).stream == Array("abcdef".utf8))
    }
}
