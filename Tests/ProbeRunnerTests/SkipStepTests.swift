import Foundation
@testable import ProbeRunner
import ProbeResults
import TestSupport
import Testing

/// `skip "REASON" unless { … }` and `skip "REASON" unless defined NAME`: a precondition the
/// subject does not meet ends the scenario as skipped (as h2spec skips a case), one it meets
/// lets it go on; and `expect frame data N` fails at once on a stream the peer has ended.
@Suite(.serialized) struct SkipStepTests {
    private static let rawServer = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/http2-peers/raw-h2-server").standardized.path
    /// The server's empty SETTINGS and its ACK of the client's.
    private static let handshake = "000000040000000000" + "000000040100000000"

    /// A connection `c` to the probe's own listener, accepted as `s`.
    private static let pair = """
        set timeout 2s
        listen l 127.0.0.1:0
        connect c 127.0.0.1:{l.port}
        accept s on l

        """

    private func raw(_ answer: String) -> String {
        """
        set timeout 2s
        spawn server "python3 \(Self.rawServer) \(answer)" ready when stdout /^(?<port>[0-9]+)$/ within 10s
        connect c h2://127.0.0.1:{port}/

        """
    }

    @Test func aStepNotMetInTheBlockSkipsTheScenario() async throws {
        let result = try await ScenarioHarness.run(Self.pair + """
            skip "the server does not greet" unless {
              s: send line "hi"
              c: expect line "hello"
            }
            c: expect line "never reached"
            """)
        guard case .skipped(let reason) = result.outcome else { Issue.record("\(result.outcome)"); return }
        #expect(reason.hasPrefix(#"the server does not greet (line 7 c: expect line "hello": "#), "\(reason)")
        #expect(!result.log.contains { $0.message.contains("never reached") })
        #expect(result.log.contains { $0.message.hasPrefix("skipped: the server does not greet") }, "\(result.log.map(\.message))")
    }

    /// A precondition met lets the scenario go on, and what the block set is known after it.
    @Test func aBlockMetGoesOnWithWhatItSet() async throws {
        let result = try await ScenarioHarness.run(Self.pair + """
            skip "the server does not greet" unless {
              s: send line "hello 42"
              c: expect line /^hello (?<n>[0-9]+)$/
            }
            c: send line "{n}"
            s: expect line "42"
            """)
        result.expectPassed()
    }

    @Test func anUndefinedVariableSkipsAndADefinedOneGoesOn() async throws {
        let skipped = try await ScenarioHarness.run(raw(Self.handshake) + """
            skip "the server sets no SETTINGS_MAX_CONCURRENT_STREAMS" unless defined http2.max-concurrent-streams
            expect frame ping "never reached"
            """)
        guard case .skipped(let reason) = skipped.outcome else { Issue.record("\(skipped.outcome)"); return }
        #expect(reason == "the server sets no SETTINGS_MAX_CONCURRENT_STREAMS (http2.max-concurrent-streams has no value)")
        let limited = try await ScenarioHarness.run(raw("00000604000000000000030000000a" + "000000040100000000") + """
            skip "the server sets no SETTINGS_MAX_CONCURRENT_STREAMS" unless defined http2.max-concurrent-streams
            """)
        limited.expectPassed()
        #expect(limited.log.contains { $0.message.hasSuffix("http2.max-concurrent-streams = 10: not skipped") }, "\(limited.log.map(\.message))")
    }

    /// HEADERS with END_STREAM (`:status 204`) ends stream 1: a DATA frame on it can never come,
    /// so the expect fails at once rather than at its timeout.
    @Test func dataOnAStreamThePeerEndedFailsAtOnce() async throws {
        let result = try await ScenarioHarness.run(raw(Self.handshake + "00000101050000000189") + """
            set timeout 30s
            expect frame data 1
            """)
        result.expectFailure(line: 5, containing: "expected DATA stream 1, but the peer ended stream 1 first: HEADERS stream 1 END_STREAM END_HEADERS · :status 204")
        #expect((result.failure?.waited ?? .seconds(30)) < .seconds(10), "\(String(describing: result.failure?.waited))")
    }
}
