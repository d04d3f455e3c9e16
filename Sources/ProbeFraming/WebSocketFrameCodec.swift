import NIOCore
import NIOEmbedded
import NIOWebSocket

/// NIOWebSocket's frame encoder and decoder, driven on embedded channels so that the probe's
/// own byte-level send modifiers act on the encoded frames, its reader keeps the bytes until
/// an expect takes them, and a captured stream can be read frame by frame. An embedded
/// channel may be used only on the thread that made it: an encoder serves one thread.
package final class WebSocketFrameCodec {
    private let encoder = EmbeddedChannel(handler: WebSocketFrameEncoder())

    package init() {}

    /// The frame's bytes as they go on the wire.
    package func encode(_ frame: WebSocketFrame) -> [UInt8] {
        _ = try? encoder.writeOutbound(frame)
        var bytes: [UInt8] = []
        while let buffer = try? encoder.readOutbound(as: ByteBuffer.self) { bytes += buffer.readableBytesView }
        return bytes
    }

    /// A frame of `opcode` with `payload`, masked with a fresh key when `masked` (a client's).
    package func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8], masked: Bool, fin: Bool = true) -> [UInt8] {
        encode(WebSocketFrame(fin: fin, opcode: opcode, maskKey: masked ? .random() : nil, data: ByteBuffer(bytes: payload)))
    }

    /// A decoder of frames up to `maxFrameSize` bytes.
    package static func decoder(maxFrameSize: Int) -> EmbeddedChannel {
        EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: min(maxFrameSize, Int(UInt32.max)))))
    }
}
