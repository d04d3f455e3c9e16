import NIOCore

extension Duration {
    /// The duration as NIO's `TimeAmount`.
    var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// How long a split waits between its pieces when no `every` says: long enough for a peer on
    /// loopback to read each piece on its own (bench/split-gap measures it), so the fault lands.
    /// A proxy's `slice` without `every` waits as long.
    static let defaultSplitGap = Duration.milliseconds(5)
}
