/// One frame as written: its type and flags, its stream, what its payload holds, and the
/// liberties a test takes (padding, a length field that lies, any type or flag bits).
package struct HTTP2FrameSend: Sendable, Hashable {
    /// What follows the frame header, by type.
    package enum Payload: Sendable, Hashable {
        /// DATA's bytes, a PING's eight, or any frame's payload as given (`type 0x0b … hex"…"`).
        case bytes(Template)
        /// A header block (HEADERS, CONTINUATION, PUSH_PROMISE): its pieces in the order written.
        case headerBlock([HTTP2BlockPiece])
        case priority(HTTP2Priority)
        /// RST_STREAM's error code.
        case errorCode(Argument<Int>)
        /// SETTINGS' parameters, in order (none for an ACK).
        case settings([HTTP2Setting])
        case goaway(lastStream: Argument<Int>, code: Argument<Int>, debug: Template?)
        case windowUpdate(Argument<Int>)
    }

    /// A Pad Length field that may lie.
    package enum PadLength: Sendable, Hashable {
        /// It says N.
        case exactly(Argument<Int>)
        /// It says N more than the bytes that follow it in the frame: an overrun of N.
        case over(Argument<Int>)

        package var argument: Argument<Int> {
            switch self {
            case .exactly(let value), .over(let value): return value
            }
        }
    }

    package var type: UInt8
    /// The flag bits named (`end-stream`, `ack`, …) and given (`flags 0x..`), ORed.
    package var flags: UInt8 = 0
    package var stream: Argument<Int>?
    package var payload: Payload
    /// HEADERS' priority fields (the PRIORITY flag is set with them).
    package var priority: HTTP2Priority?
    /// PUSH_PROMISE's promised stream.
    package var promisedStream: Argument<Int>?
    /// `padded N`: N bytes of padding (the PADDED flag is set).
    package var padding: Argument<Int>?
    /// `pad-length N`, `pad-length over N`: what the Pad Length field says, whatever padding
    /// follows (the PADDED flag is set).
    package var padLength: PadLength?
    /// `length N`: the frame header says N, whatever the payload's length.
    package var length: Argument<Int>?
    /// `continued at N…`: the header block cut at these offsets, the pieces after the first
    /// sent in CONTINUATION frames (END_HEADERS, if written, on the last).
    package var continuedAt: [Argument<Int>] = []

    package init(type: UInt8, payload: Payload) {
        self.type = type
        self.payload = payload
    }

    package var templates: [Template] {
        var templates = stream.templates + promisedStream.templates + padding.templates + padLength.map(\.argument).templates + length.templates
            + priority.templates
            + continuedAt.flatMap(\.templates)
        switch payload {
        case .bytes(let bytes): templates.append(bytes)
        case .headerBlock(let pieces): templates += pieces.flatMap(\.templates)
        case .priority(let priority): templates += priority.templates
        case .errorCode(let code), .windowUpdate(let code): templates += code.templates
        case .settings(let settings): templates += settings.flatMap { $0.id.templates + $0.value.templates }
        case .goaway(let last, let code, let debug): templates += last.templates + code.templates + (debug.map { [$0] } ?? [])
        }
        return templates
    }
}
