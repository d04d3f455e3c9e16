/// A read of the Dispatch transport's read queue, in the GCDAsyncSocket model.
public enum ReadRequest: Sendable, Equatable {
    /// Exactly this many bytes.
    case toLength(Int)
    /// Up to and including `delimiter`; fails when it has not come within `maxLength` bytes.
    case toDelimiter([UInt8], maxLength: Int)
    /// Whatever is available (at least one byte).
    case available

    public static let crlf: [UInt8] = [13, 10]
    public static let lf: [UInt8] = [10]
    public static let cr: [UInt8] = [13]
    public static let nul: [UInt8] = [0]
}

/// Why a queued read did not complete.
public enum ReadFailure: Error, Equatable, CustomStringConvertible {
    case timedOut
    case maxLengthExceeded(Int)
    case closed

    public var description: String {
        switch self {
        case .timedOut: return "read timed out"
        case .maxLengthExceeded(let limit): return "no delimiter within \(limit) bytes"
        case .closed: return "connection closed before the read completed"
        }
    }
}
