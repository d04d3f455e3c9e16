import NIOCore
import NIOEmbedded
import NIOWebSocket

/// NIOWebSocket's frame encoder and decoder, driven on embedded channels so that the probe's
/// own byte-level send modifiers act on the encoded frames, its reader keeps the bytes until
/// an expect takes them, and a captured stream can be read frame by frame.
public enum WebSocketFrameCodec {
    /// The frame's bytes as they go on the wire.
    public static func encode(_ frame: WebSocketFrame) -> [UInt8] {
        let channel = EmbeddedChannel(handler: WebSocketFrameEncoder())
        defer { _ = try? channel.finish() }
        _ = try? channel.writeOutbound(frame)
        var bytes: [UInt8] = []
        while let buffer = try? channel.readOutbound(as: ByteBuffer.self) { bytes += buffer.readableBytesView }
        return bytes
    }

    /// A frame of `opcode` with `payload`, masked with a fresh key when `masked` (a client's).
    public static func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8], masked: Bool, fin: Bool = true) -> [UInt8] {
        let data = ByteBuffer(bytes: payload)
        return encode(WebSocketFrame(fin: fin, opcode: opcode, maskKey: masked ? .random() : nil, data: data))
    }

    /// A decoder of frames up to `maxFrameSize` bytes.
    public static func decoder(maxFrameSize: Int) -> EmbeddedChannel {
        EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: min(maxFrameSize, Int(UInt32.max)))))
    }
}
