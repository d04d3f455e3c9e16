/// How an expectation ended.
package enum MatchOutcome: Sendable, Equatable {
    /// Matched; regex named groups give variables.
    /// Its regex's named groups, each with the exact bytes it took.
    case matched(captures: [String: [UInt8]], detail: MatchDetail)
    /// Cannot match: `message` says what was expected and what arrived instead.
    case failed(String)
    /// Nothing decided before the timeout; `waitingFor` says what was awaited, `pending` what had
    /// arrived, and `misframing` why it made no line when the framing explains it.
    case timedOut(waitingFor: String, pending: [UInt8], misframing: String? = nil)
}
