/// A run of a header block as written, in order: fields HPACK-encodes, or bytes as given.
package enum HTTP2BlockPiece: Sendable, Hashable {
    /// `"name"="value"`…: HPACK-encoded when sent.
    case fields([HTTP2Field])
    /// `block hex"…"`: what no encoder would send (an invalid index, a size update).
    case raw(Template)

    package var templates: [Template] {
        switch self {
        case .fields(let fields): return fields.flatMap { [$0.name, $0.value] }
        case .raw(let bytes): return [bytes]
        }
    }
}
