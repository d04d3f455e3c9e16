/// What `set capture` asks for: whole packets, none, or only their headers (and lengths),
/// which a bulk transfer needs for `bytes`, `segments` and FIN/RST checks at little cost.
package enum CaptureMode: String, Sendable, Hashable, CaseIterable {
    case on, off, headers

    /// The spellings, in the order `tcpprobe grammar` shows them.
    package static let names = allCases.map(\.rawValue)
}
