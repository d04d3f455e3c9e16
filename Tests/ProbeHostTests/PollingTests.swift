@testable import ProbeHost
import Testing

/// Asking again until a condition holds or a limit passes, on a task and blocking a thread.
@Suite struct PollingTests {
    @Test func blockingStopsAskingOnceTheConditionHolds() {
        var asks = 0
        let held = Polling.blockingUntil(within: .seconds(10), every: .milliseconds(1)) {
            asks += 1
            return asks == 3
        }
        #expect(held)
        #expect(asks == 3)
    }

    @Test func blockingGivesUpAfterTheLimitHavingAskedAgain() {
        var asks = 0
        let clock = ContinuousClock()
        let started = clock.now
        let held = Polling.blockingUntil(within: .milliseconds(30), every: .milliseconds(5)) {
            asks += 1
            return false
        }
        #expect(!held)
        #expect(clock.now - started >= .milliseconds(30))
        #expect(asks >= 2, "asked \(asks) times")
    }

    @Test func onATaskStopsAskingOnceTheConditionHolds() async {
        var asks = 0
        let held = await Polling.until(within: .seconds(10), every: .milliseconds(1)) {
            asks += 1
            return asks == 3
        }
        #expect(held)
        #expect(asks == 3)
    }
}
