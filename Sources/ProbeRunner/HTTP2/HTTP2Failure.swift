import ProbeResults
import ProbeScript

/// Why an HTTP/2 step failed before any frame was judged: the handshake, a frame that cannot
/// be written as asked, or an HTTP/2 step on a connection that does not speak it.
enum HTTP2Failure: FailureReason, Equatable {
    /// The SETTINGS exchange of `connect h2://` did not finish: what came instead, or the wait.
    case handshakeFailed(String)
    case handshakeTimedOut(within: Duration, waitingFor: String)
    /// A field's value does not fit the frame (`weight 300`, `padded 256`, a 33-bit stream).
    case outOfRange(field: String, value: Int, range: ClosedRange<Int>)
    /// NIOHPACK refused the header fields.
    case unencodable(String)
    case notHTTP2(connection: String)

    var description: String {
        switch self {
        case .handshakeFailed(let why): "HTTP/2 handshake failed: " + why
        case .handshakeTimedOut(let within, let waitingFor): "HTTP/2 handshake: waited for \(waitingFor), in vain, within the step's \(DurationFormat.short(within))"
        case .outOfRange(let field, let value, let range): "\(field) \(value) does not fit the frame (\(range.lowerBound)-\(range.upperBound))"
        case .unencodable(let why): "the header fields do not encode: " + why
        case .notHTTP2(let connection): "\(connection) is not an HTTP/2 connection (connect h2://… or h2s://…)"
        }
    }
}
