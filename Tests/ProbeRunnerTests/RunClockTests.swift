import NIOCore
@testable import ProbeRunner
import Testing

/// The run's clock: instants that add durations and subtract to durations exactly, read from
/// the clock NIO's timers use.
@Suite struct RunClockTests {
    @Test func anInstantPlusADurationSubtractsBackToIt() {
        let start = RunClock.Instant(nanoseconds: 5_000_000_000)
        for duration: Duration in [.zero, .nanoseconds(1), .milliseconds(1_500), .seconds(-2), .nanoseconds(-7), .seconds(86_400)] {
            #expect((start + duration) - start == duration, "\(duration)")
        }
        #expect(start + .microseconds(3) == RunClock.Instant(nanoseconds: 5_000_003_000))
        #expect(start + .nanoseconds(1) > start)
        #expect(start + .nanoseconds(-1) < start)
    }

    @Test func itReadsTheClockOfTheLoopsTimers() {
        let before = NIODeadline.now().uptimeNanoseconds
        let now = RunClock().now.nanoseconds
        let after = NIODeadline.now().uptimeNanoseconds
        #expect(UInt64(now) >= before)
        #expect(UInt64(now) <= after)
    }

    @Test func itNeverGoesBack() {
        let clock = RunClock()
        var last = clock.now
        for _ in 0..<10_000 {
            let next = clock.now
            #expect(next >= last)
            last = next
        }
    }
}
