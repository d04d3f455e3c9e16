/// What a transport reports, in order: started, then lines, then (perhaps) the peer's
/// half-close, then stopped — with the error that stopped it, if any.
public enum TransportEvent: Sendable {
    case started
    case received(String)
    /// The peer broke the framing (a line over the maximum length). The transport discards
    /// further input; the application may answer, then stops it.
    case framingError(any Error)
    /// The peer sent FIN: it will send nothing more, but may still read.
    case peerClosed
    case stopped((any Error)?)
}
