/// One run of a scenario with a `split sweep`: the discovery run, which sends the message whole
/// and measures it, or the run that splits it at one offset. Only the first `split sweep` a
/// run reaches is swept.
struct SweepRun: Sendable {
    enum Mode: Sendable, Equatable {
        case discover
        case offset(Int)
    }

    /// How a `split sweep` send is cut in this run.
    enum Cut: Equatable {
        /// Not the run's first split sweep: sent whole.
        case notFirst
        /// Sent whole: the discovery run, or an offset past the message.
        case whole
        case at(Int)
    }

    let mode: Mode
    /// The length of the message the first `split sweep` sent, once it ran.
    private(set) var sweptLength: Int?

    init(_ mode: Mode) {
        self.mode = mode
    }

    /// The cut for a `split sweep` send of `length` bytes; the first one is measured.
    mutating func cut(forMessageOf length: Int) -> Cut {
        guard sweptLength == nil else { return .notFirst }
        sweptLength = length
        guard case .offset(let offset) = mode, offset < length else { return .whole }
        return .at(offset)
    }
}
