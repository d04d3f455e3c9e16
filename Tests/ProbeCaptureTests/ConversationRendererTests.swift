@testable import ProbeCapture
import Testing

/// `tcpprobe show`: windows as the bytes they stand for, and traffic sent again marked.
struct ConversationRendererTests {
    /// MSS 65495, then NOP and window scale 7, as Linux's SYNs on loopback carry them.
    private let scaleSeven: [UInt8] = [2, 4, 0xFF, 0xD7, 1, 3, 3, 7]

    @Test func theWindowScaleOptionIsReadFromSYNsOnly() throws {
        let builder = PacketBuilder()
        let syn = try #require(PacketDecoder.segment(builder.packet(fromClient: true, sequence: 1, flags: .syn, window: 65495, options: scaleSeven, at: 0)))
        #expect(syn.windowScale == 7)
        let plain = try #require(PacketDecoder.segment(builder.packet(fromClient: true, sequence: 1, flags: .syn, at: 0)))
        #expect(plain.windowScale == nil)
        let data = try #require(PacketDecoder.segment(builder.packet(fromClient: true, sequence: 2, flags: .ack, options: scaleSeven, at: 0)))
        #expect(data.windowScale == nil, "the option means nothing past the handshake")
    }

    @Test func windowsAreScaledWhenBothSYNsAgreeAndRepeatsAreMarked() throws {
        let builder = PacketBuilder()
        func conversation(serverScales: Bool) -> [TCPSegment] {
            [builder.packet(fromClient: true, sequence: 100, flags: .syn, window: 65495, options: scaleSeven, at: 0),
             builder.packet(fromClient: false, sequence: 5000, flags: [.syn, .ack], window: 65483, options: serverScales ? scaleSeven : [], at: 0.001),
             builder.packet(fromClient: true, sequence: 101, flags: .ack, window: 512, at: 0.002),
             builder.packet(fromClient: true, sequence: 101, flags: [.psh, .ack], payload: Array("hello".utf8), window: 512, at: 0.003),
             builder.packet(fromClient: true, sequence: 101, flags: [.psh, .ack], payload: Array("hello".utf8), window: 512, at: 0.2),
             builder.packet(fromClient: true, sequence: 106, flags: [.fin, .ack], window: 512, at: 0.3),
             builder.packet(fromClient: true, sequence: 106, flags: [.fin, .ack], window: 512, at: 0.5),
             builder.packet(fromClient: false, sequence: 5001, flags: [.fin, .ack], window: 0, at: 0.6)].compactMap(PacketDecoder.segment)
        }
        let rows = ConversationRenderer().render(conversation(serverScales: true)).split(separator: "\n").map(String.init)
        #expect(rows[0].hasSuffix("(→ client to server, ← server to client; times from its first segment, windows in bytes)"), "\(rows[0])")
        #expect(rows[1].contains("win 65495"), "a SYN's window is never scaled: \(rows[1])")
        #expect(rows[3].contains("len 0 win 65536"), "512 << 7: \(rows[3])")
        #expect(!rows[4].contains("[RETRANSMISSION]") && rows[5].hasSuffix("[RETRANSMISSION]"), "\(rows[4])\n\(rows[5])")
        #expect(!rows[6].contains("[DUP FIN]") && rows[7].hasSuffix("[DUP FIN]"), "\(rows[6])\n\(rows[7])")
        #expect(rows[8].hasSuffix("[FIN] [ZERO WINDOW]"), "the other side's first FIN is no repeat: \(rows[8])")
        let unscaled = ConversationRenderer().render(conversation(serverScales: false)).split(separator: "\n").map(String.init)
        #expect(unscaled[3].contains("len 0 win 512"), "one side alone cannot scale: \(unscaled[3])")
    }

    /// Data that fills the other side's scaled window to its edge is marked, as Wireshark's
    /// window full, a resend too; nothing is when the windows do not scale.
    @Test func aSegmentFillingTheWindowIsMarked() {
        let builder = PacketBuilder()
        let rows = ConversationRenderer().render(builder.windowFilledThrice(serverScale: 7)).split(separator: "\n").map(String.init)
        let marked = rows.indices.filter { rows[$0].contains("[WINDOW FULL]") }
        #expect(marked == [4, 5, 8], "\(rows.joined(separator: "\n"))")
        #expect(rows[5].hasSuffix("[RETRANSMISSION] [WINDOW FULL]"), "\(rows[5])")
        let unscaled = ConversationRenderer().render(builder.windowFilledThrice(serverScale: nil))
        #expect(!unscaled.contains("[WINDOW FULL]"), "\(unscaled)")
    }
}
