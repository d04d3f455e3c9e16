import NIOCore

/// An expect waiting on a source's bytes: its matcher and its deadline, which the source's
/// queue keeps while it waits; a subclass is told the outcome. A waiting expect is this one
/// object, the step's end a subclass of it rather than a value beside it. It is made on the
/// step's side and sent to the source's loop (`ExpectSource.expect`), which alone touches it
/// from then on.
class WaitingExpect {
    // The `@exclusivity(unchecked)` vars here: docs/development.md, "Unchecked accesses".
    @exclusivity(unchecked) var matcher: ExpectationMatcher
    /// Set by the queue as the expect starts to wait.
    @exclusivity(unchecked) var deadline = NIODeadline.distantFuture

    init(_ matcher: ExpectationMatcher) {
        self.matcher = matcher
    }

    /// Told the outcome, once, on the source's loop.
    func decided(_ outcome: MatchOutcome) {
        preconditionFailure("\(Self.self) does not say what an outcome does")
    }
}
