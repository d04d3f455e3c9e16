import ProbeCapture
import ProbeFraming
import ProbeScript

/// An HTTP/2 expect that the peer's RST decided, to check on the wire once the run ends: bytes
/// the peer sent before its RST may never reach the expect (a reader that gives up on the
/// reset, a kernel that drops them), and a peer that resets with its GOAWAY still unsent never
/// sends it; the capture shows which.
struct ResetEnd {
    var statement: Statement
    var connection: ProbeConnection
    /// How much of the peer's stream the probe had read when the RST came.
    var received: Int

    /// What the peer sent that the probe never read, from the peer's direction of the wire
    /// (over TLS, its decrypted stream).
    func verdict(on trace: DirectionTrace) -> String {
        Self.verdict(received: received, on: trace)
    }

    static func verdict(received: Int, on trace: DirectionTrace) -> String {
        guard trace.holes.isEmpty else { return "not verified: the capture is missing bytes of the peer's stream" }
        let lost = trace.stream.count - received
        guard lost > 0 else { return "the wire shows nothing the RST discarded: the peer reset without a GOAWAY" }
        let frames = HTTP2Frame.frames(inCaptured: trace.stream).filter { $0.range.upperBound > received }
        let what = frames.isEmpty ? ByteEscaper.preview(Array(trace.stream[received...].prefix(40))) : frames.map(\.frame.summary).joined(separator: ", ")
        let goaway = frames.contains { $0.frame.type == 0x7 } ? "a GOAWAY then RST, the GOAWAY lost" : "the peer reset"
        return "\(goaway): the wire holds \(lost) bytes from the peer that the RST discarded unread: \(what)"
    }
}
