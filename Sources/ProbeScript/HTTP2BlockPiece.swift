/// A run of a header block as written, in order: fields HPACK-encodes, or bytes as given.
package enum HTTP2BlockPiece: Sendable, Hashable {
    /// `"name"="value"`…: HPACK-encoded when sent.
    case fields([HTTP2Field])
    /// `block hex"…"`: what no encoder would send (an invalid index, a bad encoding).
    case raw(Template)
    /// `block table-size N`: a dynamic table size update to N (RFC 7541 §6.3), HPACK-encoded
    /// when sent, whatever N the peer allows.
    case tableSizeUpdate(Argument<Int>)

    package var templates: [Template] {
        switch self {
        case .fields(let fields): return fields.flatMap { [$0.name, $0.value] }
        case .raw(let bytes): return [bytes]
        case .tableSizeUpdate(let size): return size.templates
        }
    }
}
