/// An expect's end told to a closure, for the expects no step waits on in place.
struct DecidedCallback: ExpectEnd {
    let call: (MatchOutcome) -> Void

    func decided(_ outcome: MatchOutcome) {
        call(outcome)
    }
}
