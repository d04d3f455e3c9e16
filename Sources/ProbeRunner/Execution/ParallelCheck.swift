import ProbeResults
import ProbeScript

/// An `assert copies` or `assert latency` with its values resolved, judged on a `parallel`
/// block's summary: in a run, or by `tcpprobe merge` on the whole load's. `text` is the step
/// as judged (`assert copies passed >= 99.9%`), which a part's report carries unjudged.
package enum ParallelCheck: Equatable, Sendable {
    case copies(ParallelAssertion.CopyOutcome, ComparisonOperator, ParallelAssertion.CopyAmount)
    case latency(ParallelAssertion.LatencyStatistic, ComparisonOperator, Duration)

    /// The check a step written as `text` (`assert copies passed >= 99.9%`, no variables) makes.
    package init?(text: String) {
        let parsed = Parser.parse(SourceFile(path: "step", text: text))
        guard parsed.diagnostics.isEmpty, parsed.statements.count == 1, case .assertParallel(let assertion) = parsed.statements[0].kind else { return nil }
        switch assertion {
        case .copies(let outcome, let op, let amount):
            guard let amount = amount.literal else { return nil }
            self = .copies(outcome, op, amount)
        case .latency(let statistic, let op, let limit):
            guard let limit = limit.literal else { return nil }
            self = .latency(statistic, op, limit)
        }
    }

    /// The step as judged.
    package var text: String {
        switch self {
        case .copies(let outcome, let op, let amount): "assert copies \(outcome.rawValue) \(op.rawValue) \(amount)"
        case .latency(let statistic, let op, let limit): "assert latency \(statistic.rawValue) \(op.rawValue) \(Quantity.text(of: limit))"
        }
    }

    /// What the block's summary says of it: the log's words when it holds, else why not.
    package func judge(_ summary: ParallelSummary, block: String) -> Result<String, ParallelFailure> {
        switch self {
        case .copies(let outcome, let op, let amount):
            let counted = summary.count(outcome)
            let holds = switch amount {
            case .share(let percent): summary.holds(outcome, op, share: percent)
            case .count(let number): op.holds(counted, number)
            }
            let asked = "\(op.rawValue) \(amount)"
            guard holds else {
                return .failure(.copiesNotMet(outcome: outcome.rawValue, asked: asked, counted: counted, copies: summary.copies, block: block))
            }
            return .success("copies \(outcome.rawValue): \(counted) of \(summary.copies) (\(ParallelFailure.share(counted, of: summary.copies))), \(asked)")
        case .latency(let statistic, let op, let limit):
            guard let measured = summary.latency(atPercentile: statistic.percentile) else { return .failure(.noLatencies(block: block)) }
            let asked = "\(op.rawValue) \(Quantity.text(of: limit))"
            guard op.holds(measured, limit) else {
                return .failure(.latencyNotMet(statistic: statistic.rawValue, asked: asked, measured: measured, expects: summary.expects, block: block))
            }
            return .success("latency \(statistic.rawValue): \(DurationFormat.short(measured)) over \(summary.expects) expects, \(asked)")
        }
    }
}
