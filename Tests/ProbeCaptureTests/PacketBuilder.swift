@testable import ProbeCapture

/// Builds captured packets by hand: Ethernet, BSD loopback or Linux cooked framing around
/// IPv4 or IPv6 and a TCP header.
struct PacketBuilder {
    var linkType: UInt32 = PacketDecoder.ethernet
    var ipv6 = false
    var clientPort = 40000
    var serverPort = 7000

    /// `options` are TCP options, padded to whole words.
    func packet(fromClient: Bool, sequence: UInt32, flags: TCPSegment.Flags, payload: [UInt8] = [], window: Int = 512,
                options: [UInt8] = [], at time: Double) -> CapturedPacket {
        let padded = options + [UInt8](repeating: 0, count: (4 - options.count % 4) % 4)
        let (sourcePort, destinationPort) = fromClient ? (clientPort, serverPort) : (serverPort, clientPort)
        var tcp: [UInt8] = [UInt8(sourcePort >> 8), UInt8(sourcePort & 0xFF), UInt8(destinationPort >> 8), UInt8(destinationPort & 0xFF)]
        tcp += [UInt8(sequence >> 24), UInt8((sequence >> 16) & 0xFF), UInt8((sequence >> 8) & 0xFF), UInt8(sequence & 0xFF)]
        tcp += [0, 0, 0, 1, UInt8((20 + padded.count) / 4) << 4, flags.rawValue, UInt8(window >> 8), UInt8(window & 0xFF), 0, 0, 0, 0]
        tcp += padded + payload
        var ip: [UInt8]
        if ipv6 {
            ip = [0x60, 0, 0, 0, UInt8(tcp.count >> 8), UInt8(tcp.count & 0xFF), 6, 64]
            ip += [UInt8](repeating: 0, count: 15) + [1] + [UInt8](repeating: 0, count: 15) + [1]
        } else {
            let total = 20 + tcp.count
            ip = [0x45, 0, UInt8(total >> 8), UInt8(total & 0xFF), 0, 0, 0x40, 0, 64, 6, 0, 0, 127, 0, 0, 1, 127, 0, 0, 1]
        }
        let link: [UInt8]
        switch linkType {
        case PacketDecoder.null: link = ipv6 ? [30, 0, 0, 0] : [2, 0, 0, 0]
        case PacketDecoder.linuxSLL: link = [0, 0, 3, 4, 0, 6] + [UInt8](repeating: 0, count: 8) + (ipv6 ? [0x86, 0xDD] : [0x08, 0x00])
        default: link = [UInt8](repeating: 0, count: 12) + (ipv6 ? [0x86, 0xDD] : [0x08, 0x00])
        }
        let data = link + ip + tcp
        return CapturedPacket(timestamp: time, linkType: linkType, data: data, originalLength: data.count)
    }

    /// A decoded segment made directly, with its acknowledgement number (`packet` sets 1) and
    /// `length` bytes of "x".
    func segment(fromClient: Bool, sequence: UInt32, ack: UInt32, _ flags: TCPSegment.Flags, window: Int, length: Int = 0,
                 scale: Int? = nil, at time: Double) -> TCPSegment {
        let (source, destination) = fromClient ? (clientPort, serverPort) : (serverPort, clientPort)
        return TCPSegment(timestamp: time, sourceAddress: "127.0.0.1", destinationAddress: "127.0.0.1", sourcePort: source,
                          destinationPort: destination, sequence: sequence, acknowledgement: ack, flags: flags, window: window,
                          payload: [UInt8](repeating: 0x78, count: length), windowScale: scale)
    }

    /// A client (scale 2) whose window of 16 bytes the server fills twice, and a third time
    /// resending to the first edge; windows scale only when `serverScale` is offered too.
    func windowFilledThrice(serverScale: Int?) -> [TCPSegment] {
        [segment(fromClient: true, sequence: 100, ack: 0, .syn, window: 1000, scale: 2, at: 0),
         segment(fromClient: false, sequence: 5000, ack: 101, [.syn, .ack], window: 60000, scale: serverScale, at: 0.001),
         segment(fromClient: true, sequence: 101, ack: 5001, .ack, window: 4, at: 0.002),                    // 16 bytes, scaled
         segment(fromClient: false, sequence: 5001, ack: 101, [.psh, .ack], window: 512, length: 16, at: 0.003), // fills it
         segment(fromClient: false, sequence: 5001, ack: 101, [.psh, .ack], window: 512, length: 16, at: 0.2),   // sent again: fills it too
         segment(fromClient: true, sequence: 101, ack: 5017, .ack, window: 4, at: 0.25),
         segment(fromClient: false, sequence: 5017, ack: 101, [.psh, .ack], window: 512, length: 8, at: 0.26),
         segment(fromClient: false, sequence: 5025, ack: 101, [.psh, .ack], window: 512, length: 8, at: 0.27)]  // fills it again
    }

    /// A pcap file holding `packets` (microsecond timestamps, little endian).
    static func pcapFile(_ packets: [CapturedPacket], linkType: UInt32) -> [UInt8] {
        func le32(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)] }
        var bytes = le32(0xA1B2_C3D4) + [2, 0, 4, 0] + le32(0) + le32(0) + le32(262_144) + le32(linkType)
        for packet in packets {
            let seconds = UInt32(packet.timestamp)
            let micros = UInt32(((packet.timestamp - Double(seconds)) * 1e6).rounded())
            bytes += le32(seconds) + le32(micros) + le32(UInt32(packet.data.count)) + le32(UInt32(packet.originalLength)) + packet.data
        }
        return bytes
    }

    /// The segments of a server that sends `pieces` as separate segments after a handshake.
    func serverSends(_ pieces: [String], close flags: TCPSegment.Flags = [.fin, .ack]) -> [TCPSegment] {
        var packets = [
            packet(fromClient: true, sequence: 100, flags: .syn, at: 0),
            packet(fromClient: false, sequence: 5000, flags: [.syn, .ack], at: 0.001),
            packet(fromClient: true, sequence: 101, flags: .ack, at: 0.002),
        ]
        var sequence: UInt32 = 5001
        for (index, piece) in pieces.enumerated() {
            packets.append(packet(fromClient: false, sequence: sequence, flags: [.psh, .ack], payload: Array(piece.utf8), at: 0.01 * Double(index + 1)))
            sequence &+= UInt32(piece.utf8.count)
        }
        packets.append(packet(fromClient: false, sequence: sequence, flags: flags, at: 1))
        return packets.compactMap(PacketDecoder.segment)
    }
}
