import NIOCore
@testable import ProbeRunner
import Testing

/// When sleeps and a paced send's gaps end: waits of half a second or more on the loop clock's
/// next whole millisecond, so that copies share the loop's wake-ups; shorter ones exactly.
@Suite struct WaitEndTests {
    /// Over waits either side of half a second and starts at every offset within a millisecond:
    /// a long wait ends on a whole millisecond, never early and less than a millisecond late; a
    /// short one ends exactly when it ends.
    @Test func aLongWaitEndsOnAWholeMillisecondAndAShortOneWhenItEnds() {
        let starts: [UInt64] = [5_000_000_000, 5_000_000_001, 5_000_499_999, 5_000_999_999, 7_123_456_789]
        for start in starts.map(NIODeadline.uptimeNanoseconds) {
            for wait in [Duration.milliseconds(500), .milliseconds(501), .seconds(1), .nanoseconds(1_500_000_001), .seconds(10)] {
                let exact = start + wait.timeAmount
                let end = WaitEnd.deadline(after: wait, from: start)
                #expect(end.uptimeNanoseconds % 1_000_000 == 0, "\(wait) from \(start)")
                #expect(end >= exact && end.uptimeNanoseconds - exact.uptimeNanoseconds < 1_000_000, "\(wait) from \(start)")
            }
            for wait in [Duration.nanoseconds(1), .milliseconds(10), .milliseconds(100), .nanoseconds(499_999_999)] {
                #expect(WaitEnd.deadline(after: wait, from: start) == start + wait.timeAmount, "\(wait) from \(start)")
            }
        }
    }
}
