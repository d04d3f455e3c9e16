/// `assert copies …` and `assert latency …`: judged on the `parallel` block before the step, its
/// copies and its expects' latencies (in one run, or once on the merged parts of a load).
package enum ParallelAssertion: Sendable, Hashable {
    /// `assert copies passed|failed OP N%` or `… OP N`: a share of the block's copies, or a count.
    case copies(CopyOutcome, ComparisonOperator, CopyAmount)
    /// `assert latency p50|p90|p99|p99.9|max OP D`: a statistic of the block's expect latencies.
    case latency(LatencyStatistic, ComparisonOperator, Argument<Duration>)

    /// Which copies `assert copies` counts.
    package enum CopyOutcome: String, Sendable, Hashable, CaseIterable {
        case passed, failed
    }

    /// How many copies: a share of the block's (`99.9%`), or a number of them.
    package enum CopyAmount: Sendable, Hashable {
        case share(Argument<Double>)
        case count(Argument<Int>)
    }

    /// The statistics of a block's latencies an assert may name.
    package enum LatencyStatistic: String, Sendable, Hashable, CaseIterable {
        case p50, p90, p99, p999 = "p99.9", max

        /// The percentile it is, 100 for the largest.
        package var percentile: Double {
            switch self {
            case .p50: return 50
            case .p90: return 90
            case .p99: return 99
            case .p999: return 99.9
            case .max: return 100
            }
        }
    }

    /// Its templates, for the parse-time check of `{variables}`.
    package var templates: [Template] {
        switch self {
        case .copies(_, _, .share(let share)): return share.templates
        case .copies(_, _, .count(let count)): return count.templates
        case .latency(_, _, let duration): return duration.templates
        }
    }
}
