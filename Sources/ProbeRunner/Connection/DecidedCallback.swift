/// An expect whose outcome goes to a closure, for the expects no step waits on in place.
final class DecidedCallback: WaitingExpect {
    private let call: (MatchOutcome) -> Void

    init(_ matcher: ExpectationMatcher, call: @escaping (MatchOutcome) -> Void) {
        self.call = call
        super.init(matcher)
    }

    override func decided(_ outcome: MatchOutcome) {
        call(outcome)
    }
}
