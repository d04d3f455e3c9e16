import NIOCore
import NIOWebSocket
@testable import ProbeFraming
import ProbeScript
import Testing

/// Cutting a captured stream into messages: complete ones only; a hostile length header (4 GiB,
/// or above Int.max) ends the cut without a trap; WebSocket frames are found after the upgrade's
/// head, each with the bytes it took on the wire.
@Suite struct MessageUnitsTests {
    private func ranges(_ units: MessageUnits, _ stream: [UInt8]) -> [Range<Int>] {
        units.messages(in: stream).map(\.range)
    }

    @Test func lengthPrefixedRanges() {
        let units = MessageUnits.length(LengthHeader(width: 2))
        let stream: [UInt8] = [0, 2, 104, 105, 0, 0, 0, 3, 97]
        #expect(ranges(units, stream) == [0..<4, 4..<6])
        #expect(Array(units.messages(in: stream)[0].payload) == [104, 105])
        #expect(ranges(.length(LengthHeader(width: 8)), [UInt8](repeating: 0xff, count: 12)).isEmpty)
        #expect(ranges(.length(LengthHeader(width: 4)), [0xff, 0xff, 0xff, 0xff, 1]).isEmpty)
    }

    /// Wire checks cut by the same codec the runner reads with: MQTT's head byte and varint,
    /// and PostgreSQL's length that counts itself; each range holds its head and field.
    @Test func headsAndVarintsCutAsTheRunnerReads() {
        let mqtt = MessageUnits.length(LengthHeader(field: .varint, after: 1))
        let connack: [UInt8] = [0x20, 0x02, 0x00, 0x00]
        let publish: [UInt8] = [0x30, 0x82, 0x01] + [UInt8](repeating: 7, count: 130)
        #expect(ranges(mqtt, connack + publish + [0xd0]) == [0..<4, 4..<137])
        #expect(mqtt.messages(in: connack + publish)[1].payload.count == 130)
        #expect(ranges(mqtt, [0x30, 0xff, 0xff, 0xff, 0xff, 0x01]).isEmpty, "a varint too long ends the cut")
        let postgres = MessageUnits.length(LengthHeader(width: 4, after: 1, adjust: -4))
        #expect(ranges(postgres, [0x5a, 0, 0, 0, 5, 0x49, 0x43, 0, 0, 0, 4]) == [0..<6, 6..<11])
    }

    @Test func linesAreCutByTheirTerminator() {
        let units = MessageUnits.lines(terminator: [13, 10])
        let stream = Array("a\r\nbc\r\nd".utf8)
        #expect(ranges(units, stream) == [0..<3, 3..<7])
        #expect(Array(units.messages(in: stream)[1].payload) == Array("bc".utf8))
    }

    /// Frames of each length field (7 bits, 16, 64), masked and not: each range is the frame's
    /// whole encoding, each payload unmasked; a frame cut short is left out, and so is
    /// everything while the upgrade's head is incomplete.
    @Test func webSocketFramesAfterTheUpgrade() {
        let head = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n".utf8)
        let codec = WebSocketFrameCodec()
        let small = codec.frame(.text, Array("hello".utf8), masked: true)
        let medium = codec.frame(.binary, [UInt8](repeating: 7, count: 300), masked: false, fin: false)
        let large = codec.frame(.continuation, [UInt8](repeating: 9, count: 70_000), masked: true)
        let cut = Array(codec.frame(.ping, [1, 2, 3], masked: false).dropLast())
        let stream = head + small + medium + large + cut
        let frames = WebSocketWireFrame.framesAfterUpgrade(in: stream)
        #expect(frames.map(\.range.count) == [2 + 4 + 5, 2 + 2 + 300, 2 + 8 + 4 + 70_000])
        #expect(frames.first?.range.lowerBound == head.count && frames.last?.range.upperBound == stream.count - cut.count)
        #expect(frames.map(\.summary) == ["text fin 5 bytes masked", "binary 300 bytes", "continuation fin 70000 bytes masked"])
        #expect(frames[0].payload == Array("hello".utf8) && frames[2].payload == [UInt8](repeating: 9, count: 70_000))
        #expect(ranges(.webSocketFrames, stream) == frames.map(\.range))
        #expect(WebSocketWireFrame.framesAfterUpgrade(in: Array(head.dropLast()) + small).isEmpty)
        // The head is looked for in the first 16 KiB and its blank line: one of exactly that
        // size is found, one a byte longer is not.
        func paddedHead(_ size: Int) -> [UInt8] {
            let start = Array("HTTP/1.1 101 Switching Protocols\r\nX: ".utf8)
            return start + [UInt8](repeating: 0x61, count: size - start.count - 4) + [13, 10, 13, 10]
        }
        #expect(WebSocketWireFrame.framesAfterUpgrade(in: paddedHead(16 * 1024 + 4) + small).count == 1)
        #expect(WebSocketWireFrame.framesAfterUpgrade(in: paddedHead(16 * 1024 + 5) + small).isEmpty)
    }

    /// A WebSocket message is all its frames: the first fragment to the one with FIN, a control
    /// frame between them a message of its own; its payload is the fragments' joined. A message
    /// still open at the end is left out. As frames, each stands alone.
    @Test func webSocketMessagesJoinTheirFragments() {
        let head = Array("HTTP/1.1 101 Switching Protocols\r\n\r\n".utf8)
        let codec = WebSocketFrameCodec()
        let first = codec.frame(.text, Array("in ".utf8), masked: false, fin: false)
        let ping = codec.frame(.ping, [1], masked: false)
        let second = codec.frame(.continuation, Array("three ".utf8), masked: false, fin: false)
        let pong = codec.frame(.pong, [2], masked: false)
        let close = codec.frame(.connectionClose, [3, 0xe8], masked: false)
        let last = codec.frame(.continuation, Array("fragments".utf8), masked: false)
        let whole = codec.frame(.binary, [7, 8], masked: false)
        let open = codec.frame(.text, Array("open".utf8), masked: false, fin: false)
        let stream = head + first + ping + second + pong + close + last + whole + open
        let messages = MessageUnits.webSocket.messages(in: stream)
        let start = head.count, atPing = start + first.count, atPong = atPing + ping.count + second.count, atClose = atPong + pong.count
        let afterLast = atClose + close.count + last.count
        #expect(messages.map(\.range) == [atPing..<(atPing + ping.count), atPong..<atClose, atClose..<(atClose + close.count),
                                          start..<afterLast, afterLast..<(afterLast + whole.count)])
        #expect(messages.map { Array($0.payload) } == [[1], [2], [3, 0xe8], Array("in three fragments".utf8), [7, 8]])
        #expect(MessageUnits.webSocketFrames.messages(in: stream).count == 8)
        #expect(MessageUnits.webSocket.name == "message" && MessageUnits.webSocketFrames.name == "frame")
        // A continuation with no message open (the peer under test broke the rules) is no
        // message, nor is anything after it: the live reader fails there (RFC 6455 §5.4).
        let orphan = codec.frame(.continuation, Array("c".utf8), masked: false)
        let ended = head + codec.frame(.text, Array("a".utf8), masked: false, fin: false) + codec.frame(.continuation, Array("b".utf8), masked: false)
            + orphan + codec.frame(.text, Array("d".utf8), masked: false)
        #expect(MessageUnits.webSocket.messages(in: ended).map { Array($0.payload) } == [Array("ab".utf8)])
    }

    /// HTTP/2 frames are cut after the client's preface (when the stream starts with it), each
    /// whole, header and payload; a frame cut short is left out, and so is everything while
    /// the stream is still only part of the preface. A verdict names a frame decoded.
    @Test func http2FramesAfterThePreface() {
        let settings = HTTP2Frame(type: 0x4, flags: 0, stream: 0, payload: [0, 4, 0, 0, 0xFF, 0xFF]).encoded()
        let ping = HTTP2Frame(type: 0x6, flags: 0, stream: 0, payload: Array("12345678".utf8)).encoded()
        let cut = Array(HTTP2Frame(type: 0x0, flags: 1, stream: 1, payload: [1, 2, 3]).encoded().dropLast())
        let preface = HTTP2Frame.preface
        #expect(ranges(.http2Frames, preface + settings + ping + cut) == [24..<39, 39..<56])
        #expect(ranges(.http2Frames, settings + ping) == [0..<15, 15..<32])
        #expect(ranges(.http2Frames, Array(preface.prefix(10))).isEmpty)
        let frames = MessageUnits.http2Frames.messages(in: settings + ping)
        #expect(frames[1].payload == ping)
        #expect(MessageUnits.http2Frames.describe(frames[1]) == "PING · \"12345678\"")
        #expect(MessageUnits.lines(terminator: [10]).describe(FramedRange(range: 0..<3, payload: Array("hi\n".utf8))) == "\"hi\\n\"")
        // Framing set after the preface does not move where frames start.
        #expect(MessageUnits.http2Frames.messages(in: preface + settings, from: 5).map(\.range) == [24..<39])
    }
}
