import NIOCore
import NIOEmbedded
import NIOWebSocket
import ProbeFraming
@testable import ProbeRunner
import Testing

/// The WebSocket layer's answers on an `EmbeddedChannel`, whose writability a test sets: what
/// the probe writes when its send buffer is past the high-water mark, which no peer can aim at
/// over a real socket to the frame.
@Suite struct WebSocketSessionTests {
    /// The frames the session wrote to `channel`, decoded.
    private func framesWritten(to channel: EmbeddedChannel) throws -> [WebSocketFrame] {
        let decoder = WebSocketFrameCodec.decoder(maxFrameSize: 1 << 16)
        while let bytes = try channel.readOutbound(as: ByteBuffer.self) { try decoder.writeInbound(bytes) }
        var frames: [WebSocketFrame] = []
        while let frame = try decoder.readInbound(as: WebSocketFrame.self) { frames.append(frame) }
        return frames
    }

    @Test func aPeersCloseIsAnsweredEvenWithTheSendBufferFull() throws {
        let channel = EmbeddedChannel()
        let session = WebSocketSession(role: .client, channel: channel, maxMessage: 1024)
        channel.isWritable = false
        session.closeHandshakeDone(peerCode: 1001)
        let frames = try framesWritten(to: channel)
        #expect(frames.map(\.opcode) == [.connectionClose])
        #expect(frames.first?.maskKey != nil, "a client masks its close frame")
        #expect(frames.first.map { Array($0.unmaskedData.readableBytesView) } == [0x03, 0xE9])
        #expect(session.closeSent)
    }

    @Test func autoPongStopsAtAFullSendBufferAndGoesOnOnceItDrains() throws {
        let channel = EmbeddedChannel()
        let session = WebSocketSession(role: .server, channel: channel, maxMessage: 1024)
        channel.isWritable = false
        let stopped = session.answer(ping: [1, 2, 3])
        #expect(stopped?.message.contains("does not read the pongs") == true)
        #expect(try framesWritten(to: channel).isEmpty)
        channel.isWritable = true
        #expect(session.answer(ping: [1, 2, 3]) == nil)
        let frames = try framesWritten(to: channel)
        #expect(frames.map(\.opcode) == [.pong])
        #expect(frames.first?.maskKey == nil, "a server does not mask")
        #expect(frames.first.map { Array($0.unmaskedData.readableBytesView) } == [1, 2, 3])
    }

    @Test func aPingAfterTheProbesCloseIsStillAnswered() throws {
        let channel = EmbeddedChannel()
        let session = WebSocketSession(role: .client, channel: channel, maxMessage: 1024)
        session.closeSent = true
        #expect(session.answer(ping: [7]) == nil)
        #expect(try framesWritten(to: channel).map(\.opcode) == [.pong])
    }

    /// The live reader and the wire checks join fragments through one joiner, so they agree on
    /// a broken stream: the same messages up to the first frame that breaks RFC 6455 §5.4 (a
    /// continuation with nothing open, a new message before the open one ended, a reserved
    /// opcode), and none past it. Before, the wire made a message of a stray continuation and
    /// dropped an unfinished one where the live reader failed.
    @Test func theLiveReaderAndTheWireJoinFragmentsAlike() throws {
        let codec = WebSocketFrameCodec()
        func frame(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true) -> [UInt8] {
            codec.frame(opcode, Array(text.utf8), masked: false, fin: fin)
        }
        let cases: [(frames: [UInt8], payloads: [String], violation: String?)] = [
            (frame(.text, "ab", fin: false) + frame(.ping, "p") + frame(.continuation, "cd") + frame(.binary, "z"), ["p", "abcd", "z"], nil),
            (frame(.text, "a") + frame(.continuation, "x"), ["a"], "a continuation frame with no fragmented message"),
            (frame(.text, "ab", fin: false) + frame(.text, "cd"), [], "a new text message began before the fragmented one ended"),
            (frame(.binary, "ab", fin: false) + frame(.binary, "cd", fin: false) + frame(.continuation, "e"), [], "a new binary message began"),
            (frame(.text, "a") + frame(WebSocketOpcode(encodedWebSocketOpcode: 3)!, "r") + frame(.text, "b"), ["a"], "reserved opcode"),
        ]
        for (frames, payloads, violation) in cases {
            let session = WebSocketSession(role: .client, channel: EmbeddedChannel(), maxMessage: 1024)
            var buffer = ByteBuffer(bytes: frames)
            var live: [String] = []
            var liveViolation: String?
            for _ in 0..<10 {
                guard let next = session.next(from: &buffer, end: nil) else { break }
                switch next {
                case .success(.text(let bytes)), .success(.binary(let bytes)), .success(.ping(let bytes)):
                    live.append(String(decoding: bytes, as: UTF8.self))
                case .success(let other):
                    Issue.record("unexpected \(other)")
                case .failure(let problem):
                    liveViolation = problem.message
                }
                if liveViolation != nil { break }
            }
            let head = Array("HTTP/1.1 101 Switching Protocols\r\n\r\n".utf8)
            let wire = MessageUnits.webSocket.messages(in: head + frames).map { String(decoding: $0.payload, as: UTF8.self) }
            #expect(live == payloads)
            #expect(wire == payloads, "the wire joins as the live reader does")
            if let violation {
                #expect(liveViolation?.contains(violation) == true, "\(liveViolation ?? "no violation")")
            } else {
                #expect(liveViolation == nil)
            }
        }
    }
}
