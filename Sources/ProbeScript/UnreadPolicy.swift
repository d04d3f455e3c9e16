/// What `set unread` does with bytes that arrived and that no expect read, when their
/// connection closes or the scenario ends: name them in a note, fail the scenario, or say nothing.
package enum UnreadPolicy: String, Sendable, Hashable, CaseIterable {
    case note, fail, ignore

    /// The spellings, in the order `tcpprobe grammar` shows them.
    package static let names = allCases.map(\.rawValue)
}
