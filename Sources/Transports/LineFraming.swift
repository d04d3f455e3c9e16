/// Lines framed with CR LF, as the classic transports frame them, with a maximum length.
///
/// Unframing accepts LF with or without the CR before it, however the stream is split or
/// coalesced (a CR at the end of one read and its LF at the start of the next included). A
/// line longer than `maximumLength` is an error instead of unbounded buffering; a partial line
/// at the end of the stream is dropped, never delivered as a message.
public struct LineFraming: LineUnframer {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case lineTooLong(limit: Int)

        public var description: String {
            switch self {
            case .lineTooLong(let limit): return "line too long (more than \(limit) bytes)"
            }
        }
    }

    public static let terminator: [UInt8] = [13, 10]
    public static let defaultMaximumLength = 1024

    public let maximumLength: Int
    private var partial: [UInt8] = []

    public init(maximumLength: Int = LineFraming.defaultMaximumLength) {
        self.maximumLength = maximumLength
    }

    /// The bytes of `line` followed by CR LF.
    public static func frame(_ line: String) -> [UInt8] {
        Array(line.utf8) + terminator
    }

    public mutating func append(_ bytes: some Collection<UInt8>) throws -> [String] {
        var lines: [String] = []
        for byte in bytes {
            if byte == 10 {
                if partial.last == 13 { partial.removeLast() }
                lines.append(String(decoding: partial, as: UTF8.self))
                partial.removeAll(keepingCapacity: true)
            } else {
                partial.append(byte)
                // The limit counts the line's own bytes; one pending CR may still be its terminator.
                let length = partial.last == 13 ? partial.count - 1 : partial.count
                if length > maximumLength { throw Failure.lineTooLong(limit: maximumLength) }
            }
        }
        return lines
    }

    public mutating func finish() -> [String] {
        partial.removeAll()
        return []
    }

    /// Bytes of a line begun but not finished.
    public var pendingBytes: Int { partial.count }
}
