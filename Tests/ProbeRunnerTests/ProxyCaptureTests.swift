import Foundation
@testable import ProbeRunner
import ProbeResults
import ProbeScript
import TestSupport
import Testing

/// A proxy's legs on the captured wire: `from client|server` judge what the client and the
/// server sent, `to client|server` what the proxy itself sent on each leg (its window, FIN, RST).
@Suite(.serialized, .heavy, .root)
struct ProxyCaptureTests {
    private func run(_ text: String) async throws -> ScenarioResult {
        try await ScenarioHarness.runCapturing(text, recordWire: true)
    }

    /// A server that writes each reply in two writes: what the client gets is whole lines, and
    /// the back leg shows the split.
    @Test func theBackLegCatchesSplitReplies() async throws {
        let opening = { (fault: String) in """
            var port = free-port
            set timeout 2s
            set capture on
            spawn server "linechat serve --port {port} \(fault)" ready on 127.0.0.1:{port} within 10s
            proxy p 127.0.0.1:0 to 127.0.0.1:{port}
            connect c 127.0.0.1:{p.port}
            c: send line "iam:Luke"
            c: expect line "Luke has joined"
            p: assert wire from client lines unsplit
            p: assert wire from server lines unsplit
            """ }
        let passed = try await run(opening(""))
        passed.expectPassed()
        // For the ladder: both legs, each on its side of the proxy; the probe's own connection
        // `c` is the front leg seen from the client, so it is not drawn twice.
        let legs = passed.wire.filter { $0.proxyLeg != nil }
        #expect(legs.contains { $0.proxyLeg == .front && !$0.fromProbe && $0.preview == "iam:Luke\\r\\n" }, "\(legs.map(\.preview))")
        #expect(legs.contains { $0.proxyLeg == .back && $0.fromProbe && $0.preview == "iam:Luke\\r\\n" }, "\(legs.map(\.preview))")
        #expect(legs.contains { $0.proxyLeg == .back && !$0.fromProbe && $0.preview == "Luke has joined\\r\\n" })
        #expect(!passed.wire.contains { $0.connection == "connection 'c'" }, "\(passed.wire.map(\.connection))")
        let split = try await run(opening("--fault split-replies"))
        split.expectFailure(line: 10, containing: "proxy 'p' connection 1 back leg: wire from server: the line \"Luke has joined\\r\\n\"", "was split across 2 segments")
    }

    /// `hold` closes the proxy's window to a client that keeps sending; `cut` is the proxy's
    /// FIN on both legs, `reset` its RST.
    @Test func holdCutAndResetOnTheWire() async throws {
        let opening = """
            set timeout 2s
            set capture on
            listen l 127.0.0.1:0
            proxy p 127.0.0.1:0 to 127.0.0.1:{l.port}
            connect c 127.0.0.1:{p.port}
            accept s on l
            p: hold
            c: send random 1MiB
            sleep 200ms
            p: assert wire to client zero-window
            p: release
            s: expect bytes 1MiB within 5s

            """
        let cut = try await run(opening + "p: cut\nc: expect eof\ns: expect eof\np: assert wire to client fin\np: assert wire to server fin\np: assert wire to client no rst")
        cut.expectPassed()
        let reset = try await run(opening + "p: reset\nc: expect reset\ns: expect reset\np: assert wire to client rst\np: assert wire to server rst")
        reset.expectPassed()
        let log = reset.log.map(\.message)
        #expect(log.contains { $0.contains("proxy 'p' connection 1 front leg: wire to client: ") && $0.contains("advertised a zero window") }, "\(log)")
    }
}
