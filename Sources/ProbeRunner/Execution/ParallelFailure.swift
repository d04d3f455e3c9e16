import ProbeResults
import ProbeScript

/// Why a `parallel` block failed before or beside its copies' own failures.
package enum ParallelFailure: FailureReason, Equatable {
    case noCopies
    /// The descriptors the copies need are more than the process may open: how many short.
    case tooFewDescriptors(copies: Int, shortfall: String)
    /// A copy failed with an error that is not a step's failure.
    case copyFailed(copy: Int, error: String)
    /// `assert copies`: the block's copies that passed or failed, against what the step asks.
    case copiesNotMet(outcome: String, asked: String, counted: Int, copies: Int, block: String)
    /// `assert latency`: the statistic measured, against what the step asks.
    case latencyNotMet(statistic: String, asked: String, measured: Duration, expects: Int, block: String)
    /// `assert latency` after a block none of whose copies' expects completed.
    case noLatencies(block: String)
    /// The block the assert judges did not run (a `repeat 0` around it).
    case blockDidNotRun(block: String)
    /// `merge`: a part of the load failed on its own (outside the asserts on whole blocks).
    case partFailed(part: String, message: String, environment: Bool)

    package var kind: StepFailure.Kind {
        switch self {
        case .tooFewDescriptors, .partFailed(_, _, environment: true): .environment
        default: .assertion
        }
    }

    package var description: String {
        switch self {
        case .noCopies: "parallel needs at least 1 copy"
        case .tooFewDescriptors(let copies, let shortfall): "parallel \(copies) \(shortfall)"
        case .copyFailed(let copy, let error): "copy \(copy): \(error)"
        case .copiesNotMet(let outcome, let asked, let counted, let copies, let block):
            "copies \(outcome): \(counted) of \(copies) (\(Self.share(counted, of: copies))) in the parallel block at \(block), expected \(asked)"
        case .latencyNotMet(let statistic, let asked, let measured, let expects, let block):
            "latency \(statistic): \(DurationFormat.short(measured)) over \(expects) expects of the parallel block at \(block), expected \(asked)"
        case .noLatencies(let block): "no expect of the parallel block at \(block) completed, so it has no latency to judge"
        case .blockDidNotRun(let block): "the parallel block at \(block), which this step judges, did not run"
        case .partFailed(let part, let message, _): "part \(part) failed: \(message)"
        }
    }

    /// `count` of `total` as a percentage, to the precision a share of copies is asked in.
    static func share(_ count: Int, of total: Int) -> String {
        let thousandths = total == 0 ? 0 : Int((Double(count) * 100_000 / Double(total)).rounded())
        var fraction = String(thousandths % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        return "\(thousandths / 1000)" + (fraction.isEmpty ? "" : "." + fraction) + "%"
    }
}
