import NIOCore

/// When the loop wakes at the end of a sleep or of a paced send's gap. A wait of half a second
/// or more ends on the next whole millisecond of the loop's clock, so that copies sleeping or
/// dripping at once share the loop's wake-ups (10,000 copies writing every second wake it at
/// most 1,000 times a second, not 10,000; half the CPU): it ends at most 1 ms, 0.2% of it,
/// late, and never early. Shorter waits, where a millisecond would show, end when they end.
enum WaitEnd {
    /// The shortest wait that ends on a whole millisecond.
    static let coalescedFrom = Duration.milliseconds(500)

    /// When a wait of `wait` begun at `now` ends.
    static func deadline(after wait: Duration, from now: NIODeadline = .now()) -> NIODeadline {
        let end = now + wait.timeAmount
        guard wait >= coalescedFrom else { return end }
        let millisecond = UInt64(1_000_000)
        return .uptimeNanoseconds((end.uptimeNanoseconds + millisecond - 1) / millisecond * millisecond)
    }
}
