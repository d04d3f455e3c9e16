import Glibc
import NIOCore

/// The clock a run times its steps by: the monotonic clock NIO's timers use, read with one
/// `clock_gettime`. A round trip reads it several times; `ContinuousClock`'s instant is a type
/// of another module whose every copy, comparison and subtraction is a call (bench/HISTORY.md 1).
struct RunClock: Sendable {
    /// A point on the run's clock, in nanoseconds since an arbitrary start.
    struct Instant: Comparable, Hashable, Sendable {
        let nanoseconds: Int64

        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

        static func - (lhs: Instant, rhs: Instant) -> Duration { .nanoseconds(lhs.nanoseconds - rhs.nanoseconds) }

        static func + (lhs: Instant, rhs: Duration) -> Instant {
            Instant(nanoseconds: lhs.nanoseconds &+ rhs.timeAmount.nanoseconds)
        }
    }

    var now: Instant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Instant(nanoseconds: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
    }
}
