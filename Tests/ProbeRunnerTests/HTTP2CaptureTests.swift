import Foundation
@testable import ProbeRunner
import ProbeResults
import TestSupport
import Testing

/// HTTP/2 frames on the captured wire, against linechat's NIOHTTP2 server: `frames unsplit`
/// and `frame TYPE in 1 segment|record` judge each frame after the preface (over TLS, in the
/// decrypted stream), a split send's note counts the ACKs the session wrote on its own, the
/// ladder names each frame, and an error a RST decided gets a note of what the wire holds.
@Suite(.serialized, .heavy, .root)
struct HTTP2CaptureTests {
    private static func opening(_ options: String = "", connect: String = "h2://127.0.0.1:{port}/") -> String {
        """
        set timeout 5s
        set capture on
        var port = free-port
        spawn server "linechat serve --http2 --port {port}\(options)" ready on 127.0.0.1:{port} within 10s
        connect c \(connect)

        """
    }

    @Test func framesAreJudgedOnTheWireAndASplitOneFails() async throws {
        let ping = Self.opening() + """
            send frame ping "12345678" split at 5
            expect frame ping ack "12345678"
            assert wire from peer frames unsplit
            assert wire from peer frame ping in 1 segment
            assert wire from probe frame settings in 1 segment

            """
        let passed = try await ScenarioHarness.runCapturing(ping, recordWire: true)
        passed.expectPassed()
        let log = passed.log.map(\.message)
        #expect(log.contains { $0.contains("wire from peer: 3 frames, none split across segments") }, "\(log)")
        #expect(log.contains { $0.contains("wire from peer: frame PING arrived in 1 segment") }, "\(log)")
        #expect(log.contains { $0.contains("wire from probe: 2 frames SETTINGS, each in 1 segment") }, "\(log)")
        // The SETTINGS ACK the session wrote before the send counts: the cut is found where it was.
        #expect(passed.notes.contains { $0.contains("split at 5: all 2 writes left as separate segments") }, "\(passed.notes)")
        let units = passed.wire.compactMap(\.unit)
        #expect(units.contains(#"HTTP/2 PING ACK · "12345678""#) && units.contains("HTTP/2 SETTINGS ACK"), "\(units)")

        let split = try await ScenarioHarness.runCapturing(ping + "assert wire from probe frames unsplit")
        split.expectFailure(line: 11, containing: #"wire from probe: the frame PING · "12345678" (17 bytes at offset 48) was split across 2 segments"#)
    }

    @Test func aConnectionWithoutFramesSaysSo() async throws {
        let plain = """
            set capture on
            listen l 127.0.0.1:0
            connect c 127.0.0.1:{l.port}
            accept s on l
            c: send line "x"

            """
        let frames = try await ScenarioHarness.runCapturing(plain + "c: assert wire from probe frames unsplit")
        frames.expectFailure(line: 6, containing: "frames unsplit checks WebSocket or HTTP/2 frames, and connection 'c' does not speak WebSocket or HTTP/2")
        let settings = try await ScenarioHarness.runCapturing(plain + "c: assert wire from probe frame settings in 1 segment")
        settings.expectFailure(line: 6, containing: "frame … in 1 segment checks HTTP/2 frames, and connection 'c' does not speak HTTP/2")
    }

    /// Over h2s the frames are judged in the decrypted stream, a record at a time.
    @Test func overTLSTheDecryptedFramesAreJudged() async throws {
        let certificates = try TLSTests.Certificates()
        let server = try certificates.authority.issue("server")
        let result = try await ScenarioHarness.runCapturing(Self.opening(" --tls \(server.certificate) \(server.key)",
                                                                        connect: "h2s://localhost:{port}/ tls ca \"\(certificates.authority.rootPath)\"") + """
            send frame ping "12345678"
            expect frame ping ack "12345678"
            assert wire from peer frames unsplit
            assert wire from peer frame ping in 1 record
            """)
        result.expectPassed()
        let log = result.log.map(\.message)
        #expect(log.contains { $0.contains("wire from peer, decrypted: 3 frames, none split across TLS records") }, "\(log)")
        #expect(log.contains { $0.contains("wire from peer, decrypted: frame PING arrived in 1 TLS record") }, "\(log)")
    }

    /// A server that resets with no GOAWAY passes `expect connection error` as in h2spec, and
    /// the capture says the RST discarded nothing: there was no GOAWAY to lose.
    @Test func aResetIsCheckedForALostGoaway() async throws {
        let result = try await ScenarioHarness.runCapturing(Self.opening(" --fault h2-rst-without-goaway") + """
            send frame data 0 "x"
            expect connection error PROTOCOL_ERROR
            """)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("the peer chose to close: the peer reset the connection (RST) with no GOAWAY before it") },
                "\(result.log.map(\.message))")
        #expect(result.notes.contains { $0.hasSuffix(#"expect connection error PROTOCOL_ERROR: the wire shows nothing the RST discarded: the peer reset without a GOAWAY"#) },
                "\(result.notes)")
    }
}
