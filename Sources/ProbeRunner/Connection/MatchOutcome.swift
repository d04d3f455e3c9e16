/// How an expectation ended.
public enum MatchOutcome: Sendable, Equatable {
    /// Matched; regex named groups give variables.
    case matched(captures: [String: String], detail: MatchDetail)
    /// Cannot match: `message` says what was expected and what arrived instead.
    case failed(String)
    /// Nothing decided before the timeout; `waitingFor` says what was awaited, `pending` what had arrived.
    case timedOut(waitingFor: String, pending: [UInt8])
}
