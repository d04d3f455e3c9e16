import Foundation
import Testing
import TestSupport

/// `tcpprobe proxy FRONT to BACK --fault …`, run as a subject of a scenario: it forwards through
/// its faults, prints a line per connection, and stops on Ctrl-C; a bad fault is a usage error
/// with a caret.
@Suite struct ProxyCommandTests {
    @Test func itForwardsThroughItsFaultsAndStopsOnInterrupt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-proxy-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("proxy.scn")
        try """
            var front = free-port
            set timeout 2s
            listen l 127.0.0.1:0
            spawn proxy "tcpprobe proxy 127.0.0.1:{front} to 127.0.0.1:{l.port} --fault 'delay 100ms upstream' --fault 'slice 1..1 every 1ms downstream'" ready on 127.0.0.1:{front} within 10s
            expect stdout proxy line /^tcpprobe proxy: listening on 127.0.0.1:[0-9]+, forwarding to 127.0.0.1:[0-9]+; faults: delay 100ms upstream; slice 1..1 every 1ms downstream$/
            connect c 127.0.0.1:{front}
            accept s on l
            c: send line "ping"
            s: expect line "ping" within 1s
            s: send line "pong"
            c: expect bytes 6
            c: close
            s: expect eof
            s: close
            expect stdout proxy line /^connection 1: 127.0.0.1:[0-9]+, 6 bytes upstream, 6 downstream, [0-9.]+ s$/
            kill proxy INT
            expect exit proxy code 0
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let output = try await ProbeProcess.run(["run", "-v", scenario.path])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let waited = output.stdout.split(separator: "\n").first { $0.contains("connection 's': got line \"ping\" after ") }
        let milliseconds = waited.flatMap { Double($0.components(separatedBy: " after ").last!.dropLast(2)) }
        // The expect's wait starts after the send's step ends, so it sees the 100 ms delay less
        // the time between the two steps (about 1 ms beside two busy loops); without the delay
        // it would wait well under a millisecond.
        #expect((milliseconds ?? 0) >= 90, "the upstream delay: \(waited ?? "")")
    }

    @Test func aBadFaultIsAUsageErrorWithACaret() async throws {
        let output = try await ProbeProcess.run(["proxy", "127.0.0.1:0", "to", "127.0.0.1:1", "--fault", "delay 5ms sideways"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("--fault 1:1:11: error: expected one of 'upstream', 'downstream' after the delay fault, found 'sideways'"), "\(output.stderr)")
        #expect(output.stderr.contains("\n            ^~~~~~~~"), "\(output.stderr)")
        let addresses = try await ProbeProcess.run(["proxy", "127.0.0.1:0", "127.0.0.1:1"])
        #expect(addresses.status == 2 && addresses.stderr.contains("expected FRONT to BACK"), "\(addresses.stderr)")
    }

    /// A front someone holds is an environment error (exit 3) in the system's words, with who
    /// holds it, for `proxy` and `record` as for a scenario's `listen`.
    @Test func aFrontThatIsHeldSaysWhoHoldsIt() async throws {
        let holder = try LoopbackSocket.bound(listening: true)
        defer { close(holder.fd) }
        for command in [["proxy", "127.0.0.1:\(holder.port)", "to", "127.0.0.1:1"], ["record", "--listen", "127.0.0.1:\(holder.port)", "--to", "127.0.0.1:1"]] {
            let output = try await ProbeProcess.run(command)
            #expect(output.status == 3, "\(command[0]): \(output.status)")
            #expect(output.stderr.hasPrefix("error: cannot listen on 127.0.0.1:\(holder.port): Address already in use\nport \(holder.port) now:\n  LISTEN 127.0.0.1:\(holder.port), pid "),
                    "\(command[0]): \(output.stderr)")
        }
    }
}
