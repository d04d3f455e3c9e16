import Foundation
import ProbeCapture
import ProbeResults
import ProbeRunner
import ProbeScript
import Testing

/// A capture that captures nothing: it hands the run the segments its script makes, so a wire
/// assertion can be judged without libpcap or privileges, through the run options' front door.
final class CannedCapture: PacketCapture, @unchecked Sendable {
    let path = "/nonexistent/canned.pcap"
    private let script: @Sendable () -> [TCPSegment]

    init(_ script: @escaping @Sendable () -> [TCPSegment]) {
        self.script = script
    }

    func watch(port: Int) throws {}
    func claim(probePort: Int, peerPort: Int) {}
    func sync() {}
    func stats() -> CaptureStats { .empty }
    func ringFill() -> Double { 0 }
    let ringSlots = 4096
    func segments(payloadPrefix: Int) throws -> [TCPSegment] { script() }
    func stop() -> CaptureStats { .empty }
}

@Suite struct FakeCaptureTests {
    /// The segments of a peer on `peerPort` that sends `payload` to `probePort` after a handshake, then FIN.
    /// Timed from `start` (seconds since 1970, the capture's clock).
    static func peerSends(_ payload: String, from peerPort: Int, to probePort: Int, start: Double = 0) -> [TCPSegment] {
        func segment(_ sequence: UInt32, _ flags: TCPSegment.Flags, _ bytes: [UInt8] = [], at time: Double) -> TCPSegment {
            TCPSegment(timestamp: time, sourceAddress: "127.0.0.1", destinationAddress: "127.0.0.1", sourcePort: peerPort,
                       destinationPort: probePort, sequence: sequence, acknowledgement: 1, flags: flags, window: 512, payload: bytes)
        }
        let bytes = Array(payload.utf8)
        return [segment(1000, [.syn, .ack], at: start), segment(1001, [.psh, .ack], bytes, at: start + 0.01),
                segment(1001 + UInt32(bytes.count), [.fin, .ack], at: start + 0.02)]
    }

    /// Runs `text` against `peer` with a canned capture that says the peer sent `wire`, or with
    /// none to be had when `wire` is nil; `recordWire` as the HTML report asks.
    private func run(_ text: String, against peer: TestPeer, wire: String?, recordWire: Bool = false) async throws -> ScenarioResult {
        let loaded = ScenarioLoader.load("canned.scn", predefinedVariables: ["port"]) { _ in text }
        let scenario = try #require(loaded.scenario, "\(loaded.diagnostics)")
        var capture = CaptureSettings(keep: .never)
        let peerPort = peer.port
        capture.open = { _, _ in
            guard let wire else { throw NoCapture() }
            let opened = Date().timeIntervalSince1970 // the traffic "starts" as the capture opens
            return CannedCapture { peer.log.clientPorts.last.map { Self.peerSends(wire, from: peerPort, to: $0, start: opened) } ?? [] }
        }
        var options = RunOptions(variables: ["port": String(peerPort)], capture: capture)
        options.recordWire = recordWire
        return await ScenarioHarness.runOnOwnLoop(scenario, options: options)
    }

    private struct NoCapture: Error, CustomStringConvertible {
        var description: String { "no capture here" }
    }

    @Test func aCannedCaptureMakesAWireAssertionPassAndFail() async throws {
        let peer = try await TestPeer.start(.finAfter(Array("+OK\r\n".utf8)))
        defer { Task { await peer.stop() } }
        let scenario = """
            connect 127.0.0.1:{port}
            expect line "+OK"
            expect eof
            assert wire from peer terminator crlf
            assert wire from peer fin
            """
        let passed = try await run(scenario, against: peer, wire: "+OK\r\n")
        passed.expectPassed()
        #expect(passed.log.contains { $0.message.hasSuffix("wire from peer: 1 line, ending in crlf") }, "\(passed.log.map(\.message))")
        let failed = try await run(scenario, against: peer, wire: "+OK\n")
        failed.expectFailure(line: 4, containing: "wire from peer:", "bare LF")
        let named = failed.failure?.namedSegments ?? []
        #expect(!named.isEmpty && named.allSatisfy { $0 >= 0 && $0 < 5 }, "the segments it names, timed from the scenario's start: \(named)")
    }

    /// A run that cannot capture passes on its other steps, and counts the wire checks it skipped.
    @Test func aRunWithoutCaptureCountsTheWireChecksItSkipped() async throws {
        let peer = try await TestPeer.start(.finAfter(Array("+OK\r\n".utf8)))
        defer { Task { await peer.stop() } }
        let scenario = """
            connect 127.0.0.1:{port}
            expect line "+OK"
            assert wire from peer terminator crlf
            expect eof
            assert wire from peer fin
            """
        let skipped = try await run(scenario, against: peer, wire: nil)
        skipped.expectPassed()
        #expect(skipped.skippedWireChecks == 2)
        #expect(skipped.notes.contains("wire assertions skipped: no capture here"), "\(skipped.notes)")
        let judged = try await run(scenario, against: peer, wire: "+OK\r\n")
        judged.expectPassed()
        #expect(judged.skippedWireChecks == 0)
    }

    /// A wire check's regex searches the captured lines beside the run: one that backtracks over
    /// a long line fails the step when the scenario deadline passes, saying why, and a regex that
    /// does not backtrack judges the same long line there.
    @Test func aWireRegexStillSearchingFailsAtTheDeadline() async throws {
        let peer = try await TestPeer.start(.finAfter(Array("+OK\r\n".utf8)))
        defer { Task { await peer.stop() } }
        // The canned capture says the peer sent 6,000 bytes without a space: the search backtracks
        // over n²/2 positions, 1-3 s on the search thread (0.7 s for 3,000 bytes on a slow
        // machine, under the deadline on a fast one), which it finishes after the test.
        let wire = String(repeating: "a", count: 6000) + "\r\n"
        let searching = try await run("""
            set deadline 300ms
            connect 127.0.0.1:{port}
            expect line "+OK"
            assert wire from peer line /(?<name>[^ ]+) (?<size>\\d+)/ in 1 segment
            """, against: peer, wire: wire)
        searching.expectFailure(line: 4, containing: "the scenario deadline of 300ms passed while the regex was still searching the captured stream")
        let judged = try await run("""
            connect 127.0.0.1:{port}
            expect line "+OK"
            assert wire from peer line /^a+$/ in 1 segment
            assert wire from peer line /b/ in 1 segment
            """, against: peer, wire: wire)
        judged.expectFailure(line: 4, containing: "no captured line matches /b/")
        #expect(judged.log.contains { $0.message.contains("wire from peer: line /^a+$/ arrived in 1 segment") }, "\(judged.log.map(\.message))")
    }

    /// With `recordWire` (the HTML report's ladder), the run's segments come back in its result.
    @Test func aRecordedRunKeepsItsSegmentsForTheReport() async throws {
        let peer = try await TestPeer.start(.finAfter(Array("+OK\r\n".utf8)))
        defer { Task { await peer.stop() } }
        let scenario = "connect 127.0.0.1:{port}\nexpect line \"+OK\"\nexpect eof\nassert wire from peer fin"
        let recorded = try await run(scenario, against: peer, wire: "+OK\r\n", recordWire: true)
        recorded.expectPassed()
        #expect(recorded.wire.map(\.length) == [0, 5, 0], "\(recorded.wire)")
        #expect(recorded.wire.allSatisfy { !$0.fromProbe && $0.connection == "connection #1" })
        // Timed as the step log is, from the scenario's start: the capture opened at once.
        let offsets = recorded.wire.map(\.offset)
        #expect(offsets[0] >= 0 && offsets[0] < 0.5 && abs(offsets[1] - offsets[0] - 0.01) < 1e-6 && abs(offsets[2] - offsets[0] - 0.02) < 1e-6,
                "\(offsets)")
        let plain = try await run(scenario, against: peer, wire: "+OK\r\n")
        #expect(plain.wire.isEmpty, "kept only when asked")
    }
}
