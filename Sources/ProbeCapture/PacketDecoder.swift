/// Decodes the TCP segment in a captured packet, over the link types seen on loopback:
/// Ethernet (EN10MB), BSD loopback (NULL), Linux cooked (LINUX_SLL, LINUX_SLL2) and raw IP.
package enum PacketDecoder {
    package static let ethernet: UInt32 = 1
    package static let null: UInt32 = 0
    package static let raw: UInt32 = 101
    package static let linuxSLL: UInt32 = 113
    package static let linuxSLL2: UInt32 = 276

    /// The segment, or nil for anything that is not TCP over IPv4 or IPv6.
    package static func segment(_ packet: CapturedPacket) -> TCPSegment? {
        packet.data.withUnsafeBytes { segment(linkType: packet.linkType, data: $0, timestamp: packet.timestamp) }
    }

    /// The segment in a packet's bytes (from the link layer up); only its payload is copied, and
    /// of that at most `payloadPrefix` bytes. A packet cut by a snap length still decodes while
    /// its headers are whole: its `length` comes from the IP header.
    package static func segment(linkType: UInt32, data bytes: UnsafeRawBufferPointer, timestamp: Double,
                               payloadPrefix: Int = .max) -> TCPSegment? {
        guard let offset = ipStart(linkType: linkType, data: bytes) else { return nil }
        return ip(bytes, at: offset, timestamp: timestamp, payloadPrefix: payloadPrefix)
    }

    /// The source and destination ports of a TCP packet, read without decoding the rest: how a
    /// shared capture ring tells whose packet it is. Nil for anything else.
    static func ports(linkType: UInt32, data bytes: UnsafeRawBufferPointer) -> (source: Int, destination: Int)? {
        guard let start = ipStart(linkType: linkType, data: bytes) else { return nil }
        var tcpStart: Int
        switch bytes[start] >> 4 {
        case 4:
            guard bytes.count >= start + 20, bytes[start + 9] == 6, (Int(bytes[start + 6]) & 0x1F) << 8 | Int(bytes[start + 7]) == 0 else { return nil }
            tcpStart = start + Int(bytes[start] & 0x0F) * 4
        case 6:
            guard bytes.count >= start + 40 else { return nil }
            var next = bytes[start + 6]
            tcpStart = start + 40
            while next == 0 || next == 43 || next == 60, tcpStart + 2 <= bytes.count {
                next = bytes[tcpStart]
                tcpStart += (Int(bytes[tcpStart + 1]) + 1) * 8
            }
            guard next == 6 else { return nil }
        default:
            return nil
        }
        guard bytes.count >= tcpStart + 4 else { return nil }
        return (Int(bytes[tcpStart]) << 8 | Int(bytes[tcpStart + 1]), Int(bytes[tcpStart + 2]) << 8 | Int(bytes[tcpStart + 3]))
    }

    /// Where the IP header starts past the link layer, or nil for a link type or frame not IP.
    private static func ipStart(linkType: UInt32, data bytes: UnsafeRawBufferPointer) -> Int? {
        var offset: Int
        switch linkType {
        case ethernet:
            guard bytes.count >= 14 else { return nil }
            offset = 14
            var etherType = Int(bytes[12]) << 8 | Int(bytes[13])
            while etherType == 0x8100 || etherType == 0x88A8, bytes.count >= offset + 4 { // VLAN tags
                etherType = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                offset += 4
            }
            guard etherType == 0x0800 || etherType == 0x86DD else { return nil }
        case null:
            offset = 4
        case raw:
            offset = 0
        case linuxSLL:
            offset = 16
        case linuxSLL2:
            offset = 20
        default:
            return nil
        }
        return bytes.count > offset ? offset : nil
    }

    private static func ip(_ bytes: UnsafeRawBufferPointer, at start: Int, timestamp: Double, payloadPrefix: Int) -> TCPSegment? {
        let version = bytes[start] >> 4
        let source: String, destination: String
        var tcpStart: Int
        let end: Int
        let ipEnd: Int // where the IP packet ends on the wire, past what a snap length kept
        if version == 4 {
            guard bytes.count >= start + 20, bytes[start + 9] == 6 else { return nil }
            let headerLength = Int(bytes[start] & 0x0F) * 4
            let totalLength = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
            let fragment = (Int(bytes[start + 6]) & 0x1F) << 8 | Int(bytes[start + 7])
            guard fragment == 0 else { return nil }
            source = ipv4(bytes, at: start + 12)
            destination = ipv4(bytes, at: start + 16)
            tcpStart = start + headerLength
            ipEnd = start + totalLength
            end = min(bytes.count, ipEnd)
        } else if version == 6 {
            guard bytes.count >= start + 40 else { return nil }
            var next = bytes[start + 6]
            let payloadLength = Int(bytes[start + 4]) << 8 | Int(bytes[start + 5])
            source = ipv6(bytes[(start + 8)..<(start + 24)])
            destination = ipv6(bytes[(start + 24)..<(start + 40)])
            tcpStart = start + 40
            ipEnd = start + 40 + payloadLength
            end = min(bytes.count, ipEnd)
            // Skip extension headers (hop-by-hop, routing, destination options).
            while next == 0 || next == 43 || next == 60, tcpStart + 2 <= end {
                next = bytes[tcpStart]
                tcpStart += (Int(bytes[tcpStart + 1]) + 1) * 8
            }
            guard next == 6 else { return nil }
        } else {
            return nil
        }
        guard end >= tcpStart + 20 else { return nil }
        func u16(_ offset: Int) -> Int { Int(bytes[offset]) << 8 | Int(bytes[offset + 1]) }
        func u32(_ offset: Int) -> UInt32 { UInt32(u16(offset)) << 16 | UInt32(u16(offset + 2)) }
        let dataOffset = Int(bytes[tcpStart + 12] >> 4) * 4
        guard dataOffset >= 20, tcpStart + dataOffset <= end else { return nil }
        let payloadStart = tcpStart + dataOffset
        let flags = TCPSegment.Flags(rawValue: bytes[tcpStart + 13] & 0x1F)
        var windowScale: Int?
        if flags.contains(.syn) {
            // Options: kind 0 ends them, 1 pads, any other has a length byte; 3 is the window scale.
            var option = tcpStart + 20
            while option < payloadStart, bytes[option] != 0 {
                if bytes[option] == 1 { option += 1; continue }
                guard option + 1 < payloadStart, bytes[option + 1] >= 2 else { break }
                if bytes[option] == 3, bytes[option + 1] == 3, option + 2 < payloadStart { windowScale = min(14, Int(bytes[option + 2])) }
                option += Int(bytes[option + 1])
            }
        }
        return TCPSegment(timestamp: timestamp, sourceAddress: source, destinationAddress: destination,
                          sourcePort: u16(tcpStart), destinationPort: u16(tcpStart + 2),
                          sequence: u32(tcpStart + 4), acknowledgement: u32(tcpStart + 8),
                          flags: flags, window: u16(tcpStart + 14),
                          payload: Array(bytes[payloadStart..<(payloadStart + min(end - payloadStart, payloadPrefix))]),
                          length: ipEnd - payloadStart, windowScale: windowScale)
    }

    /// Dotted decimal, written digit by digit: at most 15 bytes, so a small string that needs
    /// no allocation (formatting each octet as a String and joining them cost a good share of
    /// re-reading a capture for a wire check).
    private static func ipv4(_ bytes: UnsafeRawBufferPointer, at start: Int) -> String {
        String(unsafeUninitializedCapacity: 15) { text in
            var count = 0
            for index in start..<(start + 4) {
                if index > start {
                    text[count] = UInt8(ascii: ".")
                    count += 1
                }
                let octet = bytes[index]
                if octet >= 100 {
                    text[count] = UInt8(ascii: "0") + octet / 100
                    count += 1
                }
                if octet >= 10 {
                    text[count] = UInt8(ascii: "0") + octet / 10 % 10
                    count += 1
                }
                text[count] = UInt8(ascii: "0") + octet % 10
                count += 1
            }
            return count
        }
    }

    private static func ipv6(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        let groups = stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).map { Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) }
        // Compress the longest run of zero groups, as RFC 5952 says.
        var bestStart = -1, bestLength = 0, runStart = -1
        for (index, group) in (groups + [1]).enumerated() {
            if group == 0, index < groups.count {
                if runStart < 0 { runStart = index }
            } else if runStart >= 0 {
                if index - runStart > bestLength, index - runStart > 1 { bestStart = runStart; bestLength = index - runStart }
                runStart = -1
            }
        }
        let hex = groups.map { String($0, radix: 16) }
        guard bestStart >= 0 else { return hex.joined(separator: ":") }
        let head = hex[..<bestStart].joined(separator: ":")
        let tail = hex[(bestStart + bestLength)...].joined(separator: ":")
        return head + "::" + tail
    }
}
