/// What `set cut-off` makes of the sends on a connection after one the peer's close cut off:
/// fail the next, naming the send that was cut off, or skip them, saying so in the log.
public enum CutOffPolicy: String, Sendable, Hashable, CaseIterable {
    case fail, skip

    /// The spellings, in the order `tcpprobe grammar` shows them.
    public static let names = allCases.map(\.rawValue)
}
