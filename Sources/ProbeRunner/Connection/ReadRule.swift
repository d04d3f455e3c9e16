import ProbeFraming
import ProbeScript

/// One background rule of a connection (`on line|message … [send …]`): the lines or messages it
/// takes, cut by the framing set when it was made, and its answer to each.
struct ReadRule {
    /// The `on` step that made it, for the log.
    let statement: Statement
    let match: ExpectationMatcher.LineRule
    let head: BytePattern?
    let framing: any Framing
    /// Answers one line or message it took, given the regex's named groups; nil for a rule
    /// that only consumes. It throws when the answer cannot be made (a message too long).
    let answer: (([String: [UInt8]]) throws -> Void)?
    /// What it took, and what it answered.
    var consumed = 0
    var answered = 0
    /// Why an answer could not be made, the first time.
    var problem: String?

    /// The named groups when `payload` (with `head`) is one it takes; nil otherwise.
    func captures(_ payload: [UInt8], head messageHead: [UInt8]) -> [String: [UInt8]]? {
        if let head, !head.matches(messageHead) { return nil }
        guard case .matched(let captures, _) = ExpectationMatcher.check(match, payload) else { return nil }
        return captures
    }
}
