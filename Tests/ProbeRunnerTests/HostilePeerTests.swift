import Foundation
import ProbeRunner
import TestSupport
import Testing

/// Issue 9: hostile peers end in a clear, bounded failure — never a hang, a crash or unbounded memory.
@Suite(.serialized) struct HostilePeerTests {
    /// Resident memory of this process, in bytes.
    private func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
    }

    @Test func aResetInTheMiddleOfALineIsNamed() async throws {
        let peer = try await TestPeer.start(.resetAfter(Array("half a li".utf8)))
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect line any within 2s", against: peer)
            .expectFailure(line: 2, containing: "the peer reset the connection (RST)")
    }

    @Test func aPeerThatResetsAsItAcceptsGivesAConnectionAlreadyReset() async throws {
        // Fifty connects at once: the peer's RST often lands before the probe's loop has seen
        // its connect complete. The handshake did complete, so each is a connection, reset.
        let peer = try await TestPeer.start(.resetAtOnce)
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("parallel 50 {\n  connect 127.0.0.1:{port}\n  expect reset\n}", against: peer).expectPassed()
        try await ScenarioHarness.run("parallel 50 {\n  connect 127.0.0.1:{port}\n  expect eof\n}", against: peer)
            .expectFailure(line: 3, containing: "expected the peer's FIN (eof), but the peer reset the connection (RST)")
    }

    @Test func whatAPeerSendsBeforeResettingAtOnceIsKept() async throws {
        // A server that answers "busy" and resets: NIO's own connect lost the answer whenever
        // the RST came before its loop saw the handshake complete (3 of 40 single connects).
        let peer = try await TestPeer.start(.answerThenReset(Array("ERR busy\r\n".utf8)))
        defer { Task { await peer.stop() } }
        for host in ["127.0.0.1", "localhost"] {
            try await ScenarioHarness.run("parallel 50 {\n  connect \(host):{port}\n  expect line \"ERR busy\"\n  expect reset\n}", against: peer)
                .expectPassed()
        }
    }

    /// A send after the peer's RST is cut off, which the log says; the send after it fails,
    /// naming the one that was cut off.
    @Test func aSendAfterAResetSaysThePeerResetIt() async throws {
        let peer = try await TestPeer.start(.resetAfter(Array("bye\r\n".utf8)))
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect line \"bye\"\nexpect reset\nsend \"x\"\nsend \"y\"", against: peer)
        result.expectFailure(line: 5, containing: "connection #1 is closed: the peer closed it during the send at test.scn:4 (after 0 of 1 bytes)")
        #expect(result.log.contains { $0.message == "connection #1: the peer closed the connection (RST) after 0 of 1 bytes; the send was cut off" },
                "\(result.log.map(\.message))")
    }

    @Test(.timed) func aHundredMiBLineFailsAtMaxLineWithoutTakingItAll() async throws {
        let peer = try await TestPeer.start(.flood(limit: 100 * 1024 * 1024))
        defer { Task { await peer.stop() } }
        let before = residentBytes()
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect line any within 10s", against: peer)
            .expectFailure(line: 2, containing: "within max-line 65536 bytes")
        #expect(residentBytes() - before < 100 * 1024 * 1024, "memory grew by \(residentBytes() - before) bytes")
    }

    @Test(.timed) func aSubjectThatFloodsStdoutKeepsMemoryBounded() async throws {
        let before = residentBytes()
        let result = try await ScenarioHarness.run("""
            spawn noisy "yes all work and no play"
            sleep 2s
            kill noisy
            expect exit noisy within 5s
            """)
        result.expectPassed()
        #expect(residentBytes() - before < 100 * 1024 * 1024, "memory grew by \(residentBytes() - before) bytes")
    }

    @Test func aPeerThatAcceptsAndHangsFailsAtTheTimeout() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let clock = ContinuousClock()
        let started = clock.now
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nsend line \"hello?\"\nexpect any within 300ms", against: peer)
            .expectFailure(line: 3, containing: "timed out after 300ms waiting for any bytes")
        #expect(clock.now - started < .seconds(2))
    }
}
