import ProbeResults

/// Why a `parallel` block failed before or beside its copies' own failures.
enum ParallelFailure: FailureReason, Equatable {
    case noCopies
    /// The descriptors the copies need are more than the process may open: how many short.
    case tooFewDescriptors(copies: Int, shortfall: String)
    /// A copy failed with an error that is not a step's failure.
    case copyFailed(copy: Int, error: String)

    var kind: StepFailure.Kind {
        if case .tooFewDescriptors = self { .environment } else { .assertion }
    }

    var description: String {
        switch self {
        case .noCopies: "parallel needs at least 1 copy"
        case .tooFewDescriptors(let copies, let shortfall): "parallel \(copies) \(shortfall)"
        case .copyFailed(let copy, let error): "copy \(copy): \(error)"
        }
    }
}
