import NIOCore

extension Duration {
    /// The duration as NIO's `TimeAmount`, held within its bounds (see `saturatedNanoseconds`).
    var timeAmount: TimeAmount {
        .nanoseconds(saturatedNanoseconds)
    }

    /// The duration in whole nanoseconds, held within `Int64`'s bounds (292 years).
    var saturatedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (total, past) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return past ? (seconds < 0 ? .min : .max) : total
    }

    /// How long a split waits between its pieces when no `every` says: long enough for a peer on
    /// loopback to read each piece on its own (bench/split-gap measures it), so the fault lands.
    /// A proxy's `slice` without `every` waits as long.
    static let defaultSplitGap = Duration.milliseconds(5)
}
