@testable import linechat
import Testing

/// `linechat serve --heartbeat D`: how its interval is read.
@Suite struct HeartbeatIntervalTests {
    @Test func theHeartbeatIntervalIsMillisecondsOrSeconds() {
        #expect(HeartbeatInterval(argument: "250ms")?.duration == .milliseconds(250))
        #expect(HeartbeatInterval(argument: "2s")?.duration == .seconds(2))
        for bad in ["0s", "2", "ms", "1.5s", "-1s", "2m"] { #expect(HeartbeatInterval(argument: bad) == nil, "\(bad)") }
    }
}
