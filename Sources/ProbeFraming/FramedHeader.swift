import NIOCore
import ProbeScript

/// What came before a length-prefixed message's payload: its head bytes (`after N`) and its
/// length field, as they arrived, for the expects that judge the head and for the log and the
/// failures that show a binary message apart (`head 30 · length 05 (varint) · payload …`).
package struct FramedHeader: Sendable {
    /// The head and the field, a slice of what was read (no copy).
    package let bytes: ByteBuffer
    /// How many of `bytes` are the head.
    package let headLength: Int
    package let isVarint: Bool

    package init(bytes: ByteBuffer, headLength: Int, isVarint: Bool) {
        self.bytes = bytes
        self.headLength = headLength
        self.isVarint = isVarint
    }

    /// The head bytes.
    package var head: [UInt8] { Array(bytes.readableBytesView.prefix(headLength)) }

    /// `head 30 · length 05 (varint) · payload 00 03 74 2f 31`: the message in hex with its
    /// parts apart, the payload's first `limit` bytes only.
    package func describe(payload: [UInt8], limit: Int = 64) -> String {
        let field = bytes.readableBytesView.dropFirst(headLength)
        var parts = headLength > 0 ? ["head " + ByteEscaper.hex(head)] : []
        parts.append("length " + ByteEscaper.hex(field) + (isVarint ? " (varint)" : ""))
        parts.append(payload.isEmpty ? "no payload"
                     : "payload " + ByteEscaper.hex(payload.prefix(limit)) + (payload.count > limit ? "… (\(payload.count) bytes)" : ""))
        return parts.joined(separator: " · ")
    }
}
