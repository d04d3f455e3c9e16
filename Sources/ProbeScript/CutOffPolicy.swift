/// What `set cut-off` makes of the sends on a connection after one the peer's close cut off:
/// fail the next, naming the send that was cut off, or skip them, saying so in the log.
package enum CutOffPolicy: String, Sendable, Hashable, CaseIterable {
    case fail, skip

    /// The spellings, in the order `tcpprobe grammar` shows them.
    package static let names = allCases.map(\.rawValue)
}
