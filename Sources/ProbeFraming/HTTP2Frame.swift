import NIOCore
import ProbeScript

/// One HTTP/2 frame as it is on the wire (RFC 9113 §4.1): a 9-byte header (24-bit length,
/// type, flags, a reserved bit and a 31-bit stream) and its payload, with the fields of the
/// payload each type defines (§6). It reads and writes any frame, valid or not: a conformance
/// test sends what no peer should, and NIOHTTP2's own frame parser is internal to it and
/// refuses such frames; header blocks are left to NIOHPACK.
package struct HTTP2Frame: Sendable, Hashable {
    package var type: UInt8
    package var flags: UInt8
    /// The 32 bits after the flags: the reserved bit and the stream identifier.
    package var streamField: UInt32
    package var payload: [UInt8]

    package static let headerSize = 9
    /// The client's connection preface (RFC 9113 §3.4).
    package static let preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    package init(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) {
        self.type = type
        self.flags = flags
        self.streamField = stream
        self.payload = payload
    }

    /// The stream identifier, without the reserved bit.
    package var stream: Int { Int(streamField & 0x7FFF_FFFF) }

    package func has(_ flag: UInt8) -> Bool { flags & flag != 0 }

    /// The frame's bytes; with `length`, the header says that length whatever the payload's.
    package func encoded(length: Int? = nil) -> [UInt8] {
        let length = UInt32(truncatingIfNeeded: length ?? payload.count)
        var bytes = [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
        bytes += Self.bigEndian(streamField)
        return bytes + payload
    }

    /// What reading a frame from a buffer found.
    package enum Read: Sendable, Hashable {
        case frame(HTTP2Frame)
        /// A header announcing more payload than `maxPayload` (nothing is consumed).
        case tooLong(length: Int, header: [UInt8])
    }

    /// The payload length a frame's 9-byte header says.
    package static func payloadLength(ofHeader header: [UInt8]) -> Int {
        Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
    }

    /// The next whole frame in `buffer`, consumed; nil while it is incomplete.
    package static func read(from buffer: inout ByteBuffer, maxPayload: Int) -> Read? {
        guard let header = buffer.getBytes(at: buffer.readerIndex, length: headerSize) else { return nil }
        let length = payloadLength(ofHeader: header)
        if length > maxPayload { return .tooLong(length: length, header: header) }
        guard buffer.readableBytes >= headerSize + length else { return nil }
        buffer.moveReaderIndex(forwardBy: headerSize)
        let stream = UInt32(header[5]) << 24 | UInt32(header[6]) << 16 | UInt32(header[7]) << 8 | UInt32(header[8])
        return .frame(HTTP2Frame(type: header[3], flags: header[4], stream: stream, payload: buffer.readBytes(length: length)!))
    }

    /// The whole frames of a captured stream, each with the stream range it took: from the
    /// start, or after the client's preface when the stream begins with it (the frames of a
    /// client); a stream that is still only part of the preface holds none.
    package static func frames(inCaptured stream: [UInt8]) -> [(range: Range<Int>, frame: HTTP2Frame)] {
        var start = 0
        if stream.count < preface.count, preface.starts(with: stream) { return [] }
        if stream.starts(with: preface) { start = preface.count }
        var buffer = ByteBuffer(bytes: stream[start...])
        var frames: [(range: Range<Int>, frame: HTTP2Frame)] = []
        while case .frame(let frame)? = read(from: &buffer, maxPayload: stream.count) {
            let end = start + headerSize + frame.payload.count
            frames.append((start..<end, frame))
            start = end
        }
        return frames
    }

    // MARK: - The fields of the payload (RFC 9113 §6)

    /// How many bytes the PADDED flag's length byte and its padding take, or nil when the
    /// padding is longer than the payload (a PROTOCOL_ERROR).
    private var padding: (head: Int, tail: Int)? {
        guard [0x0, 0x1, 0x5].contains(type), has(0x8) else { return (0, 0) }
        guard let length = payload.first, Int(length) < payload.count else { return nil }
        return (1, Int(length))
    }

    /// DATA's bytes, or a header block fragment, without padding and priority fields; nil when
    /// the padding does not fit.
    package var content: ArraySlice<UInt8>? {
        guard let padding else { return nil }
        var start = padding.head
        if type == 0x1, has(0x20) { start += 5 }
        if type == 0x5 { start += 4 }
        let end = payload.count - padding.tail
        guard start <= end else { return nil }
        return payload[start..<end]
    }

    /// RST_STREAM's or GOAWAY's error code.
    package var errorCode: Int? {
        switch type {
        case 0x3 where payload.count >= 4: return Int(Self.word(payload, at: 0))
        case 0x7 where payload.count >= 8: return Int(Self.word(payload, at: 4))
        default: return nil
        }
    }

    /// GOAWAY's last stream identifier.
    package var lastStream: Int? {
        guard type == 0x7, payload.count >= 8 else { return nil }
        return Int(Self.word(payload, at: 0) & 0x7FFF_FFFF)
    }

    /// GOAWAY's debug data, PING's opaque data, or DATA's bytes: what a payload match reads.
    package var opaqueData: ArraySlice<UInt8> {
        switch type {
        case 0x7: return payload.dropFirst(8)
        case 0x0: return content ?? payload[...]
        default: return payload[...]
        }
    }

    /// SETTINGS' parameters, in order.
    package var settings: [(id: Int, value: UInt32)] {
        guard type == 0x4 else { return [] }
        return stride(from: 0, to: payload.count - payload.count % 6, by: 6).map {
            (Int(payload[$0]) << 8 | Int(payload[$0 + 1]), Self.word(payload, at: $0 + 2))
        }
    }

    /// WINDOW_UPDATE's increment.
    package var windowIncrement: Int? {
        guard type == 0x8, payload.count >= 4 else { return nil }
        return Int(Self.word(payload, at: 0) & 0x7FFF_FFFF)
    }

    /// `SETTINGS ACK`, `DATA stream 1 END_STREAM · 5 bytes`, `GOAWAY · PROTOCOL_ERROR · last
    /// stream 0`: the frame as a log line says it, header blocks aside.
    package var summary: String {
        var parts = [HTTP2Names.typeName(type)]
        if stream != 0 || ![0x4, 0x6, 0x7].contains(type) { parts.append("stream \(stream)") }
        let flagNames = HTTP2Names.flagNames(flags, of: type)
        if !flagNames.isEmpty { parts.append(flagNames) }
        var text = parts.joined(separator: " ")
        switch type {
        case 0x0: text += " · \(content?.count ?? payload.count) bytes"
        case 0x3: text += " · " + (errorCode.map(HTTP2Names.errorName) ?? "\(payload.count) bytes, not 4")
        case 0x4:
            let values = settings.map { "\(HTTP2Names.settingName($0.id))=\($0.value)" }
            if !values.isEmpty { text += " · " + values.joined(separator: " ") }
        case 0x6: text += " · " + ByteEscaper.preview(payload)
        case 0x7:
            text += " · " + (errorCode.map(HTTP2Names.errorName) ?? "\(payload.count) bytes, under 8") + (lastStream.map { " · last stream \($0)" } ?? "")
            if payload.count > 8 { text += " · " + ByteEscaper.preview(Array(payload.dropFirst(8).prefix(80))) }
        case 0x8: text += " · " + (windowIncrement.map { "increment \($0)" } ?? "\(payload.count) bytes, not 4")
        case 0x1, 0x2, 0x5, 0x9: break
        default: text += " · \(payload.count) bytes"
        }
        return text
    }

    /// "one frame: HEADERS stream 1 …" or "3 frames: …" for bytes a send wrote (a preface
    /// first is named); nil when they hold no whole frame.
    package static func summary(ofSent bytes: [UInt8]) -> String? {
        var buffer = ByteBuffer(bytes: bytes)
        var names: [String] = []
        if bytes.starts(with: preface) {
            buffer.moveReaderIndex(forwardBy: preface.count)
            names.append("the preface")
        }
        while case .frame(let frame)? = read(from: &buffer, maxPayload: bytes.count) { names.append(frame.summary) }
        if buffer.readableBytes > 0 { names.append("\(buffer.readableBytes) bytes of no whole frame") }
        guard let first = names.first else { return nil }
        let shown = names.count > 8 ? names.prefix(6) + ["…", names.last!] : names[...]
        return names.count == 1 ? first : shown.joined(separator: ", ")
    }

    private static func word(_ bytes: [UInt8], at index: Int) -> UInt32 {
        UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
    }

    package static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
