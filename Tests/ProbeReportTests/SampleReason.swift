import ProbeResults

/// A failure reason worded by the test, for reports built from made-up results.
struct SampleReason: FailureReason {
    var description: String
    var kind: StepFailure.Kind = .assertion
}
