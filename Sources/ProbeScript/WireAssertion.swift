/// `assert wire from peer|probe PROPERTY`.
package struct WireAssertion: Sendable, Hashable {
    /// `from peer|probe` on a connection; on a proxy, `from client` (what the client sent on the
    /// front leg), `from server` (what the server sent on the back leg), and `to client|server`
    /// (what the proxy itself sent on that leg: its window, its FIN or RST).
    package enum Direction: String, Sendable, Hashable, CaseIterable {
        case peer, probe, client, server
        case toClient = "to client"
        case toServer = "to server"

        /// "from peer", "to client".
        package var phrase: String { rawValue.hasPrefix("to ") ? rawValue : "from " + rawValue }
    }

    package enum Property: Sendable, Hashable {
        case terminator(Terminator)
        case linesUnsplit
        /// `line … in 1 segment` (over TLS, and as `in 1 record`: in one TLS record).
        case lineInOneSegment(LineMatch)
        /// `messages unsplit`: no message (in the current framing) spans two segments.
        case messagesUnsplit
        /// `frames unsplit`: no WebSocket or HTTP/2 frame spans two segments.
        case framesUnsplit
        /// `frame TYPE in 1 segment|record`: every HTTP/2 frame of that type arrived whole.
        case frameInOneSegment(type: UInt8)
        /// `message … in 1 segment|record`.
        case messageInOneSegment(LineMatch)
        /// `records OP N`: TLS application data records.
        case records(ComparisonOperator, Argument<Int>)
        /// `masked` / `unmasked`: every WebSocket frame is masked, or none is.
        case masked, unmasked
        case segments(ComparisonOperator, Argument<Int>)
        /// `retransmissions OP N`: data segments sent again, as Wireshark flags them.
        case retransmissions(ComparisonOperator, Argument<Int>)
        case maxSegment(ComparisonOperator, Argument<Int>)
        case bytes(ComparisonOperator, Argument<Int>)
        case fin, rst, noFin, noRst
        case zeroWindow
    }

    package var direction: Direction
    package var property: Property

    /// True for the properties that read the application's bytes, which over TLS are judged on
    /// the decrypted records; the rest are properties of TCP.
    package var readsPlaintext: Bool {
        switch property {
        case .terminator, .linesUnsplit, .lineInOneSegment, .records, .messagesUnsplit, .framesUnsplit, .frameInOneSegment, .messageInOneSegment, .masked,
             .unmasked: return true
        default: return false
        }
    }

    package init(direction: Direction, property: Property) {
        self.direction = direction
        self.property = property
    }
}

/// `=`, `!=`, `<`, `<=`, `>`, `>=`.
package enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    package func holds<Value: Comparable>(_ lhs: Value, _ rhs: Value) -> Bool {
        switch self {
        case .equal: return lhs == rhs
        case .notEqual: return lhs != rhs
        case .less: return lhs < rhs
        case .lessOrEqual: return lhs <= rhs
        case .greater: return lhs > rhs
        case .greaterOrEqual: return lhs >= rhs
        }
    }
}
