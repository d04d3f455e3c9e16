import NIOCore
import NIOWebSocket
import ProbeScript

/// One WebSocket frame as it went on the wire: the stream range it took (header, mask key and
/// payload), its bits, and its payload unmasked. Wire checks, the HTML ladder and the step log
/// name frames by these.
package struct WebSocketWireFrame: Sendable, Equatable {
    package var range: Range<Int>
    /// Its opcode as scenarios spell it (`text`, `continuation`, `opcode 3`).
    package var opcode: String
    package var code: WebSocketOpcode
    package var fin: Bool
    package var masked: Bool
    package var payload: [UInt8]

    /// "text fin 5 bytes masked", "continuation 4 bytes".
    package var summary: String {
        "\(opcode)\(fin ? " fin" : "") \(payload.count.counted("byte"))\(masked ? " masked" : "")"
    }

    /// The frames written in `bytes`, for the step log: "one frame: text fin 5 bytes masked", or
    /// their count and the first six and the last of them; nil when they hold no whole frame.
    package static func summary(of bytes: [UInt8]) -> String? {
        let frames = frames(in: bytes).map(\.summary)
        guard let first = frames.first else { return nil }
        let shown = frames.count > 8 ? frames.prefix(6) + ["…", frames.last!] : frames[...]
        return frames.count == 1 ? "one frame: \(first)" : "\(frames.count) frames: " + shown.joined(separator: ", ")
    }

    /// The frames that NIOWebSocket's decoder reads from `stream` starting at `start`, in order;
    /// it stops before an incomplete frame, or one the decoder refuses.
    package static func frames(in stream: [UInt8], from start: Int = 0) -> [WebSocketWireFrame] {
        guard start < stream.count else { return [] }
        let decoder = WebSocketFrameCodec.decoder(maxFrameSize: stream.count)
        defer { _ = try? decoder.finish() }
        _ = try? decoder.writeInbound(ByteBuffer(bytes: stream[start...]))
        var frames: [WebSocketWireFrame] = []
        var offset = start
        while let frame = try? decoder.readInbound(as: WebSocketFrame.self) {
            // The decoder does not say how many bytes a frame took: its header's length field
            // is 0, 2 or 8 bytes as the second byte says, then the mask key and the payload.
            let lengthField = stream[offset + 1] & 0x7F
            let header = 2 + (lengthField == 126 ? 2 : lengthField == 127 ? 8 : 0) + (frame.maskKey == nil ? 0 : 4)
            let end = offset + header + frame.length
            frames.append(WebSocketWireFrame(range: offset..<end, opcode: Self.name(frame.opcode), code: frame.opcode, fin: frame.fin, masked: frame.maskKey != nil,
                                             payload: Array(frame.unmaskedData.readableBytesView)))
            offset = end
        }
        return frames
    }

    /// A WebSocket connection's frames: those after the HTTP head of its upgrade (the request,
    /// or the 101), none while that head is incomplete.
    package static func framesAfterUpgrade(in stream: [UInt8]) -> [WebSocketWireFrame] {
        framesStart(in: stream).map { frames(in: stream, from: $0) } ?? []
    }

    private static func framesStart(in stream: [UInt8]) -> Int? {
        let end: [UInt8] = [13, 10, 13, 10]
        var index = 0
        while index + end.count <= min(stream.count, 16 * 1024 + end.count) {
            if stream[index..<(index + end.count)].elementsEqual(end) { return index + end.count }
            index += 1
        }
        return nil
    }

    /// The opcode as scenarios spell it: text, binary, continuation, ping, pong, close, or its number.
    static func name(_ opcode: WebSocketOpcode) -> String {
        switch opcode {
        case .continuation: return "continuation"
        case .text: return "text"
        case .binary: return "binary"
        case .connectionClose: return "close"
        case .ping: return "ping"
        case .pong: return "pong"
        default: return "opcode \(UInt8(webSocketOpcode: opcode))"
        }
    }
}
