import ProbeScript
import Testing
@testable import ProbeCapture

/// What `tcpprobe import` writes for a conversation: the framing it detects, the side the
/// probe plays, pauses, masks, and the endings; every scenario it writes parses.
@Suite struct ScenarioWriterTests {
    private func conversation(_ turns: [(Bool, String, Double)], client: CapturedConversation.Ending? = .fin, server: CapturedConversation.Ending? = .fin,
                              clientFirst: Bool = false) -> CapturedConversation {
        var conversation = CapturedConversation(client: Address(host: "127.0.0.1", port: 40000), server: Address(host: "127.0.0.1", port: 7000),
                                                startedAt: 1_795_448_521)
        for (fromClient, text, time) in turns { conversation.add(Array(text.utf8), fromClient: fromClient, at: time) }
        let last = turns.last?.2 ?? 0
        if let client { conversation.end(client, fromClient: true, at: last + (clientFirst ? 0.1 : 0.2)) }
        if let server { conversation.end(server, fromClient: false, at: last + (clientFirst ? 0.2 : 0.1)) }
        return conversation
    }

    private func steps(_ text: String) -> [String] {
        let loaded = ScenarioLoader.load("imported.scn", predefinedVariables: []) { _ in text }
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.description))\n\(text)")
        return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.hasPrefix("title") && !$0.hasPrefix("var") }
    }

    @Test func linesWithTheirTerminatorAndTheEndingsInOrder() {
        let writer = ScenarioWriter(source: "chat.pcap")
        let text = writer.write(conversation([(true, "iam:Luke\r\n", 1), (false, "Luke has joined\r\n", 1.01), (true, "quit\r\n", 1.02), (false, "bye\r\n", 1.03)]))
        #expect(text.hasPrefix("""
            # Imported by `tcpprobe import` from chat.pcap: 127.0.0.1:40000 → 127.0.0.1:7000,
            # captured 2026-11-23T15:42:01Z. The probe plays the client.
            title "imported: 127.0.0.1:40000 → 127.0.0.1:7000"
            var host = "127.0.0.1"
            var port = "7000"

            """), "\(text)")
        #expect(steps(text) == ["connect {host}:{port}", "send line \"iam:Luke\"", "expect line \"Luke has joined\"", "send line \"quit\"", "expect line \"bye\"",
                                "expect eof", "close"])
        let lf = writer.write(conversation([(true, "a\n", 1), (false, "b {x}\n", 2)], client: .fin, server: .fin, clientFirst: true))
        #expect(steps(lf) == ["set terminator lf", "connect {host}:{port}", "send line \"a\"", "expect line \"b \\{x\\}\"", "shutdown write", "expect eof"])
    }

    @Test func messagesBytesAndHex() {
        let writer = ScenarioWriter(source: "x.pcap")
        let framed = writer.write(conversation([(true, "\0\0\0\u{5}hello", 1), (false, "\0\0\0\u{2}hi", 2)], client: nil, server: .rst))
        #expect(steps(framed) == ["set framing length 4", "connect {host}:{port}", "send message \"hello\"", "expect message \"hi\"", "expect reset"])
        let bytes = writer.write(conversation([(true, "GET / HTTP/1.0\r\n\r\n", 1), (false, "\u{1}\u{2}\u{3}", 2)], client: .rst, server: nil))
        #expect(steps(bytes) == ["connect {host}:{port}", "send \"GET / HTTP/1.0\\r\\n\\r\\n\"", "expect hex\"01 02 03\"", "abort"])
    }

    @Test func theServerRolePausesAndMasks() {
        var writer = ScenarioWriter(source: "x.pcap")
        writer.role = .server
        writer.keepPauses = 0.1
        writer.masks = ["[0-9]{2}:[0-9]{2}"]
        let text = writer.write(conversation([(true, "time?\r\n", 1), (false, "hello\r\n", 1.05), (false, "it is 12:34 now\r\n", 1.5)]))
        #expect(steps(text) == ["listen l {host}:{port}", "accept c on l", "expect line \"time?\"",
                                "send line \"hello\"", "sleep 450ms", "send line \"it is 12:34 now\"", "shutdown write", "expect eof"])
        var client = ScenarioWriter(source: "x.pcap")
        client.masks = ["[0-9]{2}:[0-9]{2}"]
        let masked = client.write(conversation([(true, "time?\r\n", 1), (false, "it is 12:34 now\r\n", 1.5)]))
        #expect(steps(masked).contains("expect line /^it is (?<masked1>[0-9]{2}:[0-9]{2}) now$/"), "\(masked)")
        // Bytes (a CRLF head, an LF body): a masked turn is read `until` its regex.
        let http = client.write(conversation([(true, "GET / HTTP/1.0\r\n\r\n", 1), (false, "HTTP/1.0 200 OK\r\nDate: 12:34\r\n\r\nbody\n", 1.5)]))
        #expect(steps(http).contains("expect until /HTTP\\/1\\.0 200 OK\\r\\nDate: (?<masked1>[0-9]{2}:[0-9]{2})\\r\\n\\r\\nbody\\n/ max 1024"), "\(http)")
    }

    /// `--keep-pauses D` keeps the probe's pauses longer than D: one of exactly D is dropped.
    @Test func onlyPausesLongerThanTheLimitAreKept() {
        var writer = ScenarioWriter(source: "x.pcap")
        writer.keepPauses = 0.5
        let exact = writer.write(conversation([(false, "hi\r\n", 1), (true, "a\r\n", 1.5)]))
        #expect(!steps(exact).contains { $0.hasPrefix("sleep") }, "\(exact)")
        let longer = writer.write(conversation([(false, "hi\r\n", 1), (true, "a\r\n", 1.75)]))
        #expect(steps(longer).contains("sleep 750ms"), "\(longer)")
    }

    /// The probe's FIN is a half-close when the peer still sends after it, though the peer
    /// never closes; a pause after the peer's FIN counts from that FIN.
    @Test func whatFollowsTheEndings() {
        var conversation = CapturedConversation(client: Address(host: "127.0.0.1", port: 40000), server: Address(host: "127.0.0.1", port: 7000),
                                                startedAt: 1_795_448_521)
        conversation.add(Array("a\r\n".utf8), fromClient: true, at: 1)
        conversation.end(.fin, fromClient: true, at: 1.5)
        conversation.add(Array("b\r\n".utf8), fromClient: false, at: 2)
        #expect(steps(ScenarioWriter(source: "x.pcap").write(conversation)) == ["connect {host}:{port}", "send line \"a\"", "shutdown write", "expect line \"b\""])
        var server = ScenarioWriter(source: "x.pcap")
        server.role = .server
        server.keepPauses = 0.25
        var late = CapturedConversation(client: Address(host: "127.0.0.1", port: 40000), server: Address(host: "127.0.0.1", port: 7000),
                                        startedAt: 1_795_448_521)
        late.add(Array("a\r\n".utf8), fromClient: true, at: 1)
        late.end(.fin, fromClient: true, at: 2)
        late.add(Array("b\r\n".utf8), fromClient: false, at: 2.5)
        #expect(steps(server.write(late)) == ["listen l {host}:{port}", "accept c on l", "expect line \"a\"", "expect eof", "sleep 500ms", "send line \"b\""])
    }

    /// A line that one side sent in two turns, with the other side's turn between them, is
    /// one line: each side keeps its own unfinished bytes.
    @Test func aLineSplitAcrossTurnsIsOneLine() {
        let text = ScenarioWriter(source: "x.pcap").write(conversation([(true, "iam:", 1), (false, "hello\r\n", 1.2), (true, "Luke\r\n", 1.5),
                                                                      (false, "Luke has", 1.6), (true, "quit\r\n", 1.7), (false, " joined\r\n", 1.8)]))
        #expect(steps(text) == ["connect {host}:{port}", "expect line \"hello\"", "send line \"iam:Luke\"", "send line \"quit\"",
                                "expect line \"Luke has joined\"", "expect eof", "close"])
    }

    /// Masks that match inside what another mask took are not cut twice.
    @Test func overlappingMasksCutOnce() {
        var writer = ScenarioWriter(source: "x.pcap")
        writer.masks = ["[0-9]{2}:[0-9]{2}", "[0-9]{2}"]
        let text = writer.write(conversation([(true, "time?\r\n", 1), (false, "it is 12:34 now\r\n", 1.5)]))
        #expect(steps(text).contains("expect line /^it is (?<masked1>[0-9]{2}:[0-9]{2}) now$/"), "\(text)")
    }

    /// A slash in masked text is escaped where it stands, however many come together.
    @Test func slashesInAMaskedLineAreKept() {
        var writer = ScenarioWriter(source: "x.pcap")
        writer.masks = ["[0-9]{2}:[0-9]{2}"]
        let text = writer.write(conversation([(true, "time?\r\n", 1), (false, "/a//b at 12:34 /\r\n", 1.5)]))
        #expect(steps(text).contains(#"expect line /^\/a\/\/b at (?<masked1>[0-9]{2}:[0-9]{2}) \/$/"#), "\(text)")
    }

    /// Bytes of one side at most `turnGap` apart are one turn; further apart, two.
    @Test func oneTurnUpToTheGap() {
        var conversation = CapturedConversation(client: Address(host: "127.0.0.1", port: 1), server: Address(host: "127.0.0.1", port: 2), startedAt: 0)
        conversation.add([1], fromClient: true, at: 0)
        conversation.add([2], fromClient: true, at: CapturedConversation.turnGap)
        #expect(conversation.turns.map(\.bytes) == [[1, 2]])
        conversation.add([3], fromClient: true, at: 0.5)
        #expect(conversation.turns.map(\.bytes) == [[1, 2], [3]])
    }

    /// MQTT's packets (a head byte, then a varint) are written as messages with their heads.
    @Test func mqttIsWrittenAsMessagesWithHeads() {
        var conversation = CapturedConversation(client: Address(host: "127.0.0.1", port: 40000), server: Address(host: "127.0.0.1", port: 1883), startedAt: 0)
        let connect: [UInt8] = [0x10, 0x0f, 0, 4] + Array("MQTT".utf8) + [4, 2, 0, 60, 0, 3] + Array("abc".utf8)
        conversation.add(connect, fromClient: true, at: 1)
        conversation.add([0x20, 0x02, 0x00, 0x00], fromClient: false, at: 2)
        conversation.add([0xc0, 0x00], fromClient: true, at: 3)
        conversation.add([0xd0, 0x00], fromClient: false, at: 4)
        conversation.add([0xe0, 0x00], fromClient: true, at: 5)
        conversation.end(.fin, fromClient: true, at: 5.1)
        conversation.end(.fin, fromClient: false, at: 5.2)
        let text = ScenarioWriter(source: "mqtt.pcap").write(conversation)
        #expect(steps(text) == ["set framing varint after 1", "connect {host}:{port}",
                                #"send message head hex"10" hex"00 04 4d 51 54 54 04 02 00 3c 00 03 61 62 63""#,
                                #"expect message head hex"20" hex"00 00""#, #"send message head hex"c0" """#,
                                #"expect message head hex"d0" """#, #"send message head hex"e0" """#, "shutdown write", "expect eof"], "\(text)")
    }

    /// A CR that stands alone, not before an LF, makes the text bytes rather than CRLF lines.
    @Test func aBareCRIsNotALineEnd() {
        let text = ScenarioWriter(source: "x.pcap").write(conversation([(true, "a\rb\r\n", 1), (false, "ok\r\n", 1.5)]))
        #expect(steps(text) == ["connect {host}:{port}", #"send "a\rb\r\n""#, #"expect "ok\r\n""#, "expect eof", "close"], "\(text)")
    }

    /// Pieces captured at the same moment keep the order they came in.
    @Test func piecesOfOneMomentKeepTheirOrder() throws {
        let builder = PacketBuilder()
        let packets = [builder.packet(fromClient: true, sequence: 0, flags: [.syn], at: 1),
                       builder.packet(fromClient: false, sequence: 0, flags: [.syn, .ack], at: 1),
                       builder.packet(fromClient: true, sequence: 1, flags: [.psh, .ack], payload: Array("ab".utf8), at: 1.5),
                       builder.packet(fromClient: true, sequence: 3, flags: [.psh, .ack], payload: Array("cd".utf8), at: 1.5),
                       builder.packet(fromClient: true, sequence: 5, flags: [.psh, .ack], payload: Array("ef".utf8), at: 1.5)]
        let conversation = try CapturedConversation(segments: packets.compactMap(PacketDecoder.segment))
        #expect(conversation.turns.map(\.bytes) == [Array("abcdef".utf8)])
    }

    /// A side that sent nothing does not stop the other's lines from being lines.
    @Test func aSilentSideLeavesTheOthersLines() {
        let text = ScenarioWriter(source: "x.pcap").write(conversation([(true, "QUIT\r\n", 1)], client: .fin, server: nil))
        #expect(steps(text) == ["connect {host}:{port}", "send line \"QUIT\"", "close"])
    }

    /// From segments: the SYN's sender is the client; bytes the capture lost are named.
    @Test func conversationsFromSegments() throws {
        let builder = PacketBuilder()
        let handshake = [builder.packet(fromClient: true, sequence: 0, flags: [.syn], at: 1), builder.packet(fromClient: false, sequence: 0, flags: [.syn, .ack], at: 1.001)]
        let whole = handshake + [builder.packet(fromClient: true, sequence: 1, flags: [.psh, .ack], payload: Array("abc\r\n".utf8), at: 1.01),
                                 builder.packet(fromClient: false, sequence: 1, flags: [.psh, .ack], payload: Array("ok\r\n".utf8), at: 1.02),
                                 builder.packet(fromClient: true, sequence: 6, flags: [.fin, .ack], at: 1.03)]
        let conversation = try CapturedConversation(segments: whole.compactMap(PacketDecoder.segment))
        #expect(conversation.client.port == 40000 && conversation.server.port == 7000)
        #expect(conversation.turns.map(\.bytes) == [Array("abc\r\n".utf8), Array("ok\r\n".utf8)] && conversation.clientEnding?.kind == .fin)
        let lossy = handshake + [builder.packet(fromClient: true, sequence: 1, flags: [.psh, .ack], payload: Array("abc".utf8), at: 1.01),
                                 builder.packet(fromClient: true, sequence: 7, flags: [.psh, .ack], payload: Array("ghi".utf8), at: 1.02)]
        #expect(throws: CapturedConversation.Problem.self) { try CapturedConversation(segments: lossy.compactMap(PacketDecoder.segment)) }
        do { _ = try CapturedConversation(segments: lossy.compactMap(PacketDecoder.segment)) } catch {
            #expect("\(error)" == "the capture is missing 3 bytes of the client's stream at offset 3 (packets not captured)")
        }
        let serverLossy = handshake + [builder.packet(fromClient: false, sequence: 1, flags: [.psh, .ack], payload: Array("ok".utf8), at: 1.01),
                                       builder.packet(fromClient: false, sequence: 5, flags: [.psh, .ack], payload: Array("!".utf8), at: 1.02)]
        do {
            _ = try CapturedConversation(segments: serverLossy.compactMap(PacketDecoder.segment))
            Issue.record("a hole in the server's stream was not named")
        } catch {
            #expect("\(error)" == "the capture is missing 2 bytes of the server's stream at offset 2 (packets not captured)")
        }
        // A capture that begins at the SYN-ACK has lost the client's SYN: which side is the
        // client cannot be told, and the SYN-ACK's sender must not be taken for it.
        let late = [handshake[1], builder.packet(fromClient: true, sequence: 1, flags: [.psh, .ack], payload: Array("abc\r\n".utf8), at: 1.01)]
        #expect(throws: CapturedConversation.Problem.self) { try CapturedConversation(segments: late.compactMap(PacketDecoder.segment)) }
    }

    /// Each side's first ending is kept, whichever side ended first.
    @Test func bothEndingsAreKeptWhicheverComesFirst() {
        var conversation = CapturedConversation(client: Address(host: "127.0.0.1", port: 1), server: Address(host: "127.0.0.1", port: 2), startedAt: 0)
        conversation.end(.fin, fromClient: false, at: 1)
        conversation.end(.rst, fromClient: true, at: 2)
        conversation.end(.fin, fromClient: true, at: 3)
        #expect(conversation.serverEnding?.kind == .fin && conversation.clientEnding?.kind == .rst && conversation.clientEnding?.time == 2)
    }
}
