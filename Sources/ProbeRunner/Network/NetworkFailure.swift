import ProbeResults

/// Why a `network` step failed.
enum NetworkFailure: FailureReason, Equatable {
    /// `network NAME` inside a `parallel` copy.
    case madeInCopy
    /// The machine cannot make namespaces, and what is missing.
    case missingPrivilege(String)
    /// Making the namespace or its link failed.
    case cannotMake(name: String, error: String)
    /// A fault whose prefix is not a network's name alone (`n.2: delay 5ms`, or none).
    case faultNamesLink(step: String)

    var kind: StepFailure.Kind {
        switch self {
        case .missingPrivilege, .cannotMake: .environment
        case .madeInCopy, .faultNamesLink: .assertion
        }
    }

    var description: String {
        switch self {
        case .madeInCopy: "a network is made once a run: make it before the parallel block"
        case .missingPrivilege(let missing): missing
        case .cannotMake(let name, let error): "cannot make network '\(name)': \(error)"
        case .faultNamesLink(let step): "a network fault names its network alone, as in 'n: \(step)'"
        }
    }
}
