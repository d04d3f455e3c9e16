import Foundation
import ProbeResults
@testable import ProbeRunner
import ProbeScript
import TestSupport
import Testing

/// A run's own traffic waits while its capture falls behind, and goes on when it catches up.
@Suite struct CaptureHoldTests {
    /// Runs `text` against `peer` with `capture` in place of a live one, handed to the run
    /// through its options.
    private func run(_ text: String, against peer: TestPeer, capture: ScriptedCapture) async throws -> ScenarioResult {
        let loaded = ScenarioLoader.load("hold.scn", predefinedVariables: ["port"]) { _ in text }
        let scenario = try #require(loaded.scenario, "\(loaded.diagnostics)")
        var settings = CaptureSettings(always: true, keep: .never)
        settings.open = { _, _ in capture }
        let result = await ScenarioHarness.runOnOwnLoop(scenario, options: RunOptions(variables: ["port": String(peer.port)], capture: settings))
        #expect(result.outcome.passed, "\(String(describing: result.failure))")
        return result
    }

    @Test func thresholdsHoldAboveFourFifthsAndResumeBelowThreeFifths() {
        let capture = ScriptedCapture(fill: 0.8)
        let hold = CaptureHold(capture)
        #expect(!hold.mustHold)
        #expect(!hold.mayResume)
        capture.setFill(0.81)
        #expect(hold.mustHold)
        capture.setFill(0.59)
        #expect(hold.mayResume)
        #expect(hold.summary == nil)
        hold.heldSending(for: .milliseconds(250))
        hold.heldReading(for: .milliseconds(40))
        #expect(hold.summary?.contains("held sending for 250ms and reading for 40ms") == true, "\(hold.summary ?? "nil")")
    }

    /// A small ring holds earlier: a fifth of 510 slots is under the 128 kept free for what the
    /// kernel still takes once the run holds.
    @Test func aSmallRingHoldsEarlierToKeepItsReserveFree() {
        let small = ScriptedCapture(fill: 0.76, slots: 510)
        let hold = CaptureHold(small)
        #expect(abs(hold.holdMark - (1 - 128.0 / 510)) < 1e-9 && abs(hold.resumeMark - (hold.holdMark - 0.2)) < 1e-9)
        #expect(hold.mustHold, "76% of 510 slots leaves 122 free, under the reserve")
        #expect(!CaptureHold(ScriptedCapture(fill: 0.76)).mustHold, "a large ring holds at 80%")
        #expect(CaptureHold(ScriptedCapture(fill: 0, slots: 100)).holdMark == 0.3, "never lower than 30%")
    }

    @Test func aSendWaitsUntilTheCaptureCatchesUp() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let capture = ScriptedCapture(fill: 0.9, forReads: 300, then: 0.1)
        let started = ContinuousClock.now
        let result = try await run("connect 127.0.0.1:{port}\nsend line \"hello\"", against: peer, capture: capture)
        #expect(ContinuousClock.now - started >= .milliseconds(100))
        let sent = try #require(result.log.first { $0.message.contains("sent 7 bytes") })
        #expect(sent.message.contains("held"), "\(sent.message)")
        #expect(result.notes.contains { $0.contains("held sending for") }, "\(result.notes)")
        try await peer.log.waitForEnd()
        #expect(peer.log.received == Array("hello\r\n".utf8), "the held write still goes out, once")
    }

    @Test func readingWaitsUntilTheCaptureCatchesUp() async throws {
        // A peer that writes a line and stays open: on the peer's FIN NIO reads what is left anyway.
        let peer = try await TestPeer.start(.bulkLines(1))
        defer { Task { await peer.stop() } }
        let capture = ScriptedCapture(fill: 0.9, forReads: 300, then: 0.1)
        let started = ContinuousClock.now
        let result = try await run("connect 127.0.0.1:{port}\nexpect line /^0:x+$/", against: peer, capture: capture)
        #expect(ContinuousClock.now - started >= .milliseconds(250), "the line waits in the socket until the capture catches up")
        #expect(result.log.contains { $0.message.contains("got line \"0:xxx") }, "\(result.log.map(\.message))")
        #expect(result.notes.contains { $0.contains("held reading for") }, "\(result.notes)")
    }

    @Test(.timed) func aCaptureThatNeverCatchesUpHoldsAWriteOnlyForItsTimeout() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let capture = ScriptedCapture(fill: 1)
        let started = ContinuousClock.now
        let result = try await run("set timeout 200ms\nconnect 127.0.0.1:{port} timeout 5s\nsend line \"a\"\nsend line \"b\"", against: peer, capture: capture)
        let took = ContinuousClock.now - started
        #expect(took >= .milliseconds(350) && took < .seconds(5), "\(took)")
        try await peer.log.waitForEnd()
        #expect(peer.log.received == Array("a\r\nb\r\n".utf8))
        #expect(result.notes.contains { $0.contains("held sending for") }, "\(result.notes)")
    }
}
