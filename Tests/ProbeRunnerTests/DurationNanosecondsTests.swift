@testable import ProbeRunner
import Testing

/// The step timeout and the scenario deadline are weighed in whole nanoseconds
/// (`Settings.timeoutNanoseconds`, `deadlineNanoseconds`), kept as `set` changes them.
@Suite struct DurationNanosecondsTests {
    @Test func aDurationInNanosecondsIsExactWithinInt64AndHeldAtItsBounds() {
        #expect(Duration.milliseconds(250).saturatedNanoseconds == 250_000_000)
        #expect(Duration.nanoseconds(-7).saturatedNanoseconds == -7)
        #expect((Duration.seconds(3) + .nanoseconds(1)).saturatedNanoseconds == 3_000_000_001)
        #expect(Duration.seconds(9_223_372_036).saturatedNanoseconds == 9_223_372_036_000_000_000)
        #expect(Duration.seconds(9_223_372_037).saturatedNanoseconds == .max, "past Int64's 292 years")
        #expect(Duration.seconds(-9_223_372_037).saturatedNanoseconds == .min)
        #expect((Duration.seconds(9_223_372_036) + .milliseconds(900)).saturatedNanoseconds == .max, "the fraction carries it past")
    }

    @Test func theSettingsKeepTheirLimitsInNanosecondsAsTheyChange() {
        var settings = Settings()
        #expect(settings.timeoutNanoseconds == Duration.seconds(5).saturatedNanoseconds)
        #expect(settings.deadlineNanoseconds == Duration.seconds(60).saturatedNanoseconds)
        settings.timeout = .milliseconds(1500)
        settings.deadline = .seconds(100_000_000_000)
        #expect(settings.timeoutNanoseconds == 1_500_000_000)
        #expect(settings.deadlineNanoseconds == .max)
    }
}
