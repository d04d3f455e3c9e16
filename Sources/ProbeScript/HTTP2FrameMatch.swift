/// `expect frame TYPE [STREAM] [FLAG]... [error CODE [or CODE]...] [last-stream N] [status N]
/// [header "NAME"="VALUE"|/RE/]... [length N] ["DATA"|hex"…"|/RE/] [or close]`.
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
    /// `length N`: the frame's payload length, padding included, as its header says.
    package var length: Argument<Int>?
    /// `or close`: the connection's end (FIN or RST) passes too, as h2spec's "or connection close".
    package var orClose = false

    package init(type: UInt8) {
        self.type = type
    }

    package var templates: [Template] {
        stream.templates + errorCodes.flatMap(\.templates) + lastStream.templates + status.templates + length.templates
            + headers.flatMap(\.templates) + (payload?.templates ?? [])
    }
}
