import NIOCore
import ProbeFraming
#if canImport(Glibc)
import Glibc
#endif

/// A send the peer's close cut off: its FIN came and the write then failed, or its RST came. A
/// correct server may do that (it refuses an over-long line, or ends a slowloris drip at its
/// timeout), so the send is noted, not failed.
struct SendCutOff: Error {
    /// The bytes of the send written before the cut.
    let sent: Int
    /// How the peer closed: "RST", "FIN", "broken pipe".
    let why: String

    /// How the peer closed, when `problem` (a write's error) comes from the peer's close; nil
    /// for any other error. `end` is how the connection's input ended, if it has.
    static func peerClose(_ problem: Error, end: InboundEnd?) -> String? {
        if let error = problem as? IOError {
            if InboundEnd(caught: error) == .reset { return "RST" }
            return error.errnoCode == EPIPE ? (end == .reset ? "RST" : "broken pipe") : nil
        }
        guard let error = problem as? ChannelError, error == .ioOnClosedChannel || error == .outputClosed else { return nil }
        switch end {
        case .eof?: return "FIN"
        case .truncated?: return "FIN without close_notify"
        case .reset?: return "RST"
        case .error?: return "the connection failed"
        case .closedByProbe?, nil: return nil
        }
    }
}
