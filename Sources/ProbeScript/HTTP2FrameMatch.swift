/// `expect frame TYPE [STREAM] [FLAG]... [error CODE [or CODE]...] [last-stream N] [status N]
/// [header "NAME"="VALUE"|/RE/]... ["DATA"|hex"…"|/RE/]`.
package struct HTTP2FrameMatch: Sendable, Hashable {
    package var type: UInt8
    package var stream: Argument<Int>?
    /// Flag bits that must be set.
    package var flags: UInt8 = 0
    /// RST_STREAM's or GOAWAY's code: one of these.
    package var errorCodes: [Argument<Int>] = []
    package var lastStream: Argument<Int>?
    /// HEADERS' `:status`.
    package var status: Argument<Int>?
    package var headers: [HTTP2FieldMatch] = []
    /// The payload (DATA's bytes, PING's, GOAWAY's debug data): exactly these, or a regex found in it.
    package var payload: LineMatch?

    package init(type: UInt8) {
        self.type = type
    }

    package var templates: [Template] {
        stream.templates + errorCodes.flatMap(\.templates) + lastStream.templates + status.templates
            + headers.flatMap(\.templates) + (payload?.templates ?? [])
    }
}
