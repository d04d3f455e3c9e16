/// What a waiting expect tells its end: the outcome, once, on the loop its bytes arrive on.
protocol ExpectEnd {
    func decided(_ outcome: MatchOutcome)
}
