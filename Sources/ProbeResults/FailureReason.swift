/// What a failed step found, as a value with the fields it names. Each family of steps declares
/// its reasons as one enum and words them in one place, that enum's `description`: a report shows
/// the words, a test compares the value, and rewording a failure changes the renderer and its
/// goldens (Tests/Fixtures/failures), not the tests. A helper without the statement at hand may
/// throw a reason; its step wraps it in a `StepFailure`.
package protocol FailureReason: Error, CustomStringConvertible {
    /// `.environment` when the machine, not the subject, stopped the run (exit code 3).
    var kind: StepFailure.Kind { get }
}

extension FailureReason {
    package var kind: StepFailure.Kind { .assertion }
}
