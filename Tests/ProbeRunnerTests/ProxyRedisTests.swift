import Foundation
import ProbeResults
import TestSupport
import Testing

/// redis-server and redis-cli, a real server and client, through the proxy: redis-cli's own
/// latency measure sees a delay, and a cut as the connection lost.
@Suite(.serialized, .timed, .redis) struct ProxyRedisTests {
    /// The value the log's expects gave `{name}`.
    private func captured(_ name: String, in result: ScenarioResult) -> Double? {
        for entry in result.log {
            guard let range = entry.message.range(of: "{\(name)}=\"") else { continue }
            return Double(entry.message[range.upperBound...].prefix { $0 != "\"" })
        }
        return nil
    }

    @Test func redisCliMeasuresTheDelayAndSeesTheCut() async throws {
        let result = try await ScenarioHarness.run("""
            var rport = free-port
            set timeout 5s
            spawn redis "redis-server --port {rport} --bind 127.0.0.1 --save '' --appendonly no" ready on 127.0.0.1:{rport} within 10s
            proxy p 127.0.0.1:0 to 127.0.0.1:{rport}
            spawn plain "redis-cli -h 127.0.0.1 -p {p.port} --latency --raw -i 1"
            expect stdout plain line /^[0-9]+ [0-9]+ (?<plain>[0-9.]+) [0-9]+$/ within 5s
            p: delay 50ms
            spawn delayed "redis-cli -h 127.0.0.1 -p {p.port} --latency --raw -i 1"
            expect stdout delayed line /^[0-9]+ [0-9]+ (?<delayed>[0-9.]+) [0-9]+$/ within 5s
            p: clear
            spawn cli "redis-cli -h 127.0.0.1 -p {p.port}" with stdin
            input cli line "PING"
            expect stdout cli line "PONG"
            p: cut
            input cli line "PING"
            expect stderr cli line "Error: Server closed the connection"
            """)
        result.expectPassed()
        let plain = try #require(captured("plain", in: result)), delayed = try #require(captured("delayed", in: result))
        #expect(abs(delayed - plain - 100) <= 10, "redis-cli --latency: \(plain) ms plain, \(delayed) ms through delay 50ms")
    }
}
