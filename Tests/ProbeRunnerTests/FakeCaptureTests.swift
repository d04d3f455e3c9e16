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
    func sync() {}
    func stats() -> CaptureStats { .empty }
    func ringFill() -> Double { 0 }
    func segments(payloadPrefix: Int) throws -> [TCPSegment] { script() }
    func stop() -> CaptureStats { .empty }
}

@Suite struct FakeCaptureTests {
    /// The segments of a peer on `peerPort` that sends `payload` to `probePort` after a handshake, then FIN.
    static func peerSends(_ payload: String, from peerPort: Int, to probePort: Int) -> [TCPSegment] {
        func segment(_ sequence: UInt32, _ flags: TCPSegment.Flags, _ bytes: [UInt8] = [], at time: Double) -> TCPSegment {
            TCPSegment(timestamp: time, sourceAddress: "127.0.0.1", destinationAddress: "127.0.0.1", sourcePort: peerPort,
                       destinationPort: probePort, sequence: sequence, acknowledgement: 1, flags: flags, window: 512, payload: bytes)
        }
        let bytes = Array(payload.utf8)
        return [segment(1000, [.syn, .ack], at: 0), segment(1001, [.psh, .ack], bytes, at: 0.01),
                segment(1001 + UInt32(bytes.count), [.fin, .ack], at: 0.02)]
    }

    /// Runs `text` against `peer` with a canned capture that says the peer sent `wire`.
    private func run(_ text: String, against peer: TestPeer, wire: String) async throws -> ScenarioResult {
        let loaded = ScenarioLoader.load("canned.scn", predefinedVariables: ["port"]) { _ in text }
        let scenario = try #require(loaded.scenario, "\(loaded.diagnostics)")
        var capture = CaptureSettings(keep: .never)
        let peerPort = peer.port
        capture.open = { _, _ in
            CannedCapture { peer.log.clientPorts.last.map { Self.peerSends(wire, from: peerPort, to: $0) } ?? [] }
        }
        return await ScenarioHarness.runOnOwnLoop(scenario, options: RunOptions(variables: ["port": String(peerPort)], capture: capture))
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
        #expect(passed.log.contains { $0.message.hasSuffix("wire from peer: 1 lines, each ending in crlf") }, "\(passed.log.map(\.message))")
        let failed = try await run(scenario, against: peer, wire: "+OK\n")
        failed.expectFailure(line: 4, containing: "wire from peer:", "bare LF")
    }
}
