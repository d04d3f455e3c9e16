/// `assert copies …` and `assert latency …`: judged on the `parallel` block before the step, its
/// copies and its expects' latencies (in one run, or once on the merged parts of a load).
package enum ParallelAssertion: Sendable, Hashable {
    /// `assert copies passed|failed OP N%` or `… OP N`: a share of the block's copies, or a count.
    case copies(CopyOutcome, ComparisonOperator, Argument<CopyAmount>)
    /// `assert latency p50|p90|p99|p99.9|max OP D`: a statistic of the block's expect latencies.
    case latency(LatencyStatistic, ComparisonOperator, Argument<Duration>)

    /// Which copies `assert copies` counts.
    package enum CopyOutcome: String, Sendable, Hashable, CaseIterable {
        case passed, failed
    }

    /// How many copies: a share of the block's, in percent (`99.9%`), or a number of them.
    package enum CopyAmount: Sendable, Hashable, CustomStringConvertible {
        case share(Double)
        case count(Int)

        /// `99.9%` or `999`.
        package static func parse(_ text: String) -> CopyAmount? {
            if text.hasSuffix("%") { return Quantity.percent(text).map(CopyAmount.share) }
            return Quantity.integer(text).map(CopyAmount.count)
        }

        package static let hint = "a share such as 99.9% or a number of copies such as 999"

        package var description: String {
            switch self {
            case .share(let percent): percent == percent.rounded() ? "\(Int(percent))%" : "\(percent)%"
            case .count(let number): "\(number)"
            }
        }
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
        case .copies(_, _, let amount): return amount.templates
        case .latency(_, _, let duration): return duration.templates
        }
    }
}
