import ProbeFraming
import ProbeScript

/// A wire property with its arguments resolved, ready to judge one direction of a connection.
package enum WireCheck: Sendable {
    case terminator(Terminator)
    /// No line (ending in `terminator`) was split across segments.
    case linesUnsplit(terminator: [UInt8])
    /// The first line that `matches` arrived within a single segment.
    case lineInOneSegment(description: String, terminator: [UInt8], matches: @Sendable ([UInt8]) -> Bool)
    /// No message (line or length-prefixed, cut from stream offset `from`) was split across segments.
    case messagesUnsplit(MessageUnits, from: Int = 0)
    /// Every message that `matches` (cut from stream offset `from`) arrived within a single segment.
    case messageInOneSegment(description: String, units: MessageUnits, from: Int = 0, matches: @Sendable ([UInt8]) -> Bool)
    /// Every WebSocket frame masked (true), or none.
    case framesMasked(Bool)
    /// Over TLS: how many application data records.
    case records(ComparisonOperator, Int)
    case segments(ComparisonOperator, Int)
    case retransmissions(ComparisonOperator, Int)
    case maxSegment(ComparisonOperator, Int)
    case bytes(ComparisonOperator, Int)
    case fin, rst, noFin, noRst
    case zeroWindow

    /// Whether judging it reads payload bytes; the others need only lengths and flags.
    package var readsPayloads: Bool {
        switch self {
        case .terminator, .linesUnsplit, .lineInOneSegment, .records, .messagesUnsplit, .messageInOneSegment, .framesMasked: return true
        default: return false
        }
    }
}

/// The judgement of a wire check.
package struct WireVerdict: Sendable {
    package var passed: Bool
    /// What was found, in a sentence.
    package var summary: String
    /// The segments that show it, as rows, when it failed.
    package var evidence: [TCPSegment]

    package init(passed: Bool, summary: String, evidence: [TCPSegment] = []) {
        self.passed = passed
        self.summary = summary
        self.evidence = evidence
    }
}
