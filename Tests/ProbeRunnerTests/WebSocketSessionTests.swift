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
}
