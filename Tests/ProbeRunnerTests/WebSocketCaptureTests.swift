import Foundation
@testable import ProbeRunner
import ProbeResults
import ProbeScript
import TestSupport
import Testing

/// WebSocket frames on the captured wire: `assert wire … masked | unmasked | messages unsplit |
/// message … in 1 segment` judge the frames after the upgrade (over wss, in the decrypted
/// stream), the step log names the frames a send wrote, and the HTML ladder's events name each
/// frame over the segment that completed it.
@Suite(.serialized, .heavy, .root, .websockets)
struct WebSocketCaptureTests {
    private static let peer = WebSocketTests.peer
    private static let server = "spawn server \"python3 \(peer) server\" ready when stdout /^(?<wport>[0-9]+)$/ within 10s"

    private func run(_ text: String) async throws -> ScenarioResult {
        try await ScenarioHarness.runCapturing(text, recordWire: true)
    }

    @Test func theFramesOnTheWire() async throws {
        let opening = """
            set timeout 5s
            set capture on
            \(Self.server)
            connect c ws://127.0.0.1:{wport}/
            send text "hello"
            expect text "hello"
            send text "hello world" in frames of 4
            expect text "hello world"
            assert wire from probe masked
            assert wire from peer unmasked
            assert wire from peer messages unsplit
            assert wire from probe message "hello" in 1 segment

            """
        let passed = try await run(opening)
        passed.expectPassed()
        let log = passed.log.map(\.message)
        #expect(log.contains { $0.hasSuffix("one frame: text fin 5 bytes masked") }, "\(log)")
        #expect(log.contains { $0.hasSuffix("3 frames: text 4 bytes masked, continuation 4 bytes masked, continuation fin 3 bytes masked") }, "\(log)")
        #expect(log.contains { $0.contains("wire from probe: 4 frames, each masked") }, "\(log)")
        #expect(log.contains { $0.contains("wire from peer: 2 frames, each unmasked") }, "\(log)")
        let frames = passed.wire.compactMap { event in event.unit.map { (event.fromProbe, $0) } }
        #expect(frames.map(\.1) .filter { $0.hasPrefix("WebSocket ") }.count == 6, "\(frames)")
        #expect(frames.contains { $0 == (true, "WebSocket text fin 5 bytes masked \"hello\"") }, "\(frames)")
        #expect(frames.contains { $0 == (false, "WebSocket text fin 11 bytes \"hello world\"") }, "\(frames)")

        let split = try await run(opening + """
            send text "split me" split at 3
            expect text "split me"
            assert wire from probe messages unsplit
            """)
        split.expectFailure(line: 15, containing: "wire from probe: the message \"split me\" (14 bytes at offset", "was split across 2 segments")
        // A message is all its frames: three fragments in three segments split it, though each
        // frame is whole.
        let fragments = opening + """
            send text "in pieces" in frames of 3 every 30ms
            expect text "in pieces"
            assert wire from probe frames unsplit

            """
        let whole = try await run(fragments)
        whole.expectPassed()
        #expect(whole.log.contains { $0.message.contains("wire from probe: 7 frames, none split across segments") }, "\(whole.log.map(\.message))")
        let fragmented = try await run(fragments + "assert wire from probe messages unsplit")
        fragmented.expectFailure(line: 16, containing: "wire from probe: the message \"in pieces\" (", "was split across 3 segments")
        let wrongWay = try await run(opening + "assert wire from peer masked")
        wrongWay.expectFailure(line: 13, containing: "wire from peer: the 1st frame (text fin 5 bytes, at stream offset ", ") is not masked")
    }

    /// A server that masks its frames: the expect that reads one fails on the rule, and the
    /// wire check finds the mask in the capture.
    @Test func aMaskedFrameFromTheServerFailsUnmasked() async throws {
        let result = try await run("""
            set timeout 5s
            set capture on
            spawn server "python3 \(Self.peer) raw-server 818200000000686981026869" ready when stdout /^(?<wport>[0-9]+)$/ within 10s
            connect ws://127.0.0.1:{wport}/
            sleep 300ms
            assert wire from peer unmasked
            """)
        result.expectFailure(line: 6, containing: "wire from peer: the 1st frame (text fin 2 bytes masked, at stream offset", "is not unmasked")
        let plain = try await run("""
            set capture on
            listen l 127.0.0.1:0
            connect c 127.0.0.1:{l.port}
            accept s on l
            c: send line "x"
            c: assert wire from probe masked
            """)
        plain.expectFailure(line: 6, containing: "masked and unmasked check WebSocket frames, and connection 'c' does not speak WebSocket")
    }

    /// Over wss the frames are judged in the decrypted stream.
    @Test func overTLSTheDecryptedFramesAreJudged() async throws {
        let certificates = try TLSTests.Certificates()
        let server = try certificates.authority.issue("server")
        let result = try await run("""
            set timeout 5s
            set capture on
            spawn server "python3 \(Self.peer) server \(server.certificate) \(server.key)" ready when stdout /^(?<wport>[0-9]+)$/ within 10s
            connect wss://localhost:{wport}/secure tls ca "\(certificates.authority.rootPath)"
            send text "over TLS" in frames of 3
            expect text "over TLS"
            assert wire from probe masked
            assert wire from peer unmasked
            assert wire from peer message "over TLS" in 1 record
            """)
        result.expectPassed()
        let log = result.log.map(\.message)
        #expect(log.contains { $0.contains("wire from probe, decrypted: 3 frames, each masked") }, "\(log)")
        #expect(result.wire.contains { $0.unit == "WebSocket text fin 8 bytes \"over TLS\"" && !$0.fromProbe }, "\(result.wire.compactMap(\.unit))")
    }
}
