/// How the inbound side of a connection ended.
package enum InboundEnd: Sendable, Equatable, CustomStringConvertible {
    /// The peer sent FIN.
    case eof
    /// The peer sent RST.
    case reset
    /// Over TLS: the peer sent FIN without close_notify first (a truncation attack looks so).
    case truncated
    /// The probe closed or aborted the connection itself.
    case closedByProbe
    /// Any other socket error.
    case error(String)

    package var description: String {
        switch self {
        case .eof: return "the peer closed the connection (FIN)"
        case .reset: return "the peer reset the connection (RST)"
        case .truncated: return "the peer closed the connection without close_notify (FIN only: a truncation)"
        case .closedByProbe: return "the probe closed the connection"
        case .error(let message): return "the connection failed: \(message)"
        }
    }
}
