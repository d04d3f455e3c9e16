import Foundation
import ProbeResults
import Testing

/// `connect … from`: the source address, with or without a port, or the next of a range, as
/// the peer sees it; an address the machine does not have is an environment error.
@Suite struct SourceAddressTests {
    static let counter = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers/address_counter.py").path

    @Test func thePeerSeesTheSourceAsked() async throws {
        let result = try await ScenarioHarness.run("""
            var port = free-port
            var sport = free-port
            listen l 127.0.0.1:{port}
            connect a 127.0.0.1:{port} from 127.0.0.2
            accept b on l
            connect c 127.0.0.1:{port} from 127.0.0.3:{sport}
            accept d on l
            repeat 3 {
              connect 127.0.0.1:{port} from 127.0.0.0/30
              accept x on l
            }
            connect localhost:{port} from 127.0.0.9
            accept y on l
            """)
        result.expectPassed()
        let accepted = result.log.compactMap { entry -> String? in
            guard let range = entry.message.range(of: "accepted from ") else { return nil }
            return String(entry.message[range.upperBound...].prefix { $0 != ":" })
        }
        #expect(accepted == ["127.0.0.2", "127.0.0.3", "127.0.0.1", "127.0.0.2", "127.0.0.1", "127.0.0.9"], "a /30 hands out .1 and .2 in turn: \(accepted)")
        let sport = try #require(result.log.first { $0.message.hasPrefix("sport = ") }?.message.split(separator: " ")[2])
        #expect(result.log.contains { $0.message.contains("'d': accepted from 127.0.0.3:\(sport) ") }, "the port asked for")
    }

    @Test func anAddressTheMachineDoesNotHaveIsAnEnvironmentError() async throws {
        let result = try await ScenarioHarness.run("connect 127.0.0.1:9 from 192.0.2.1\n")
        result.expectFailure(line: 1, containing: "cannot connect from 192.0.2.1: not an address of this machine")
        #expect(result.failure?.kind == .environment)
        let mixed = try await ScenarioHarness.run("connect 127.0.0.1:9 from ::1\n")
        mixed.expectFailure(line: 1, containing: "cannot connect from ::1: 127.0.0.1 has no address of its family")
    }

    /// Copies of a `parallel` block spread over 127.0.0.1-254 round robin, as many as the
    /// machine's descriptor limit lets one process hold at once, up to 20,000: the server
    /// counts each address, and every copy is answered with an address of the range. The one
    /// Python process answers them at a few hundred a second on a busy machine (two busy loops,
    /// a build): the copies' expects wait up to 100 s, so only a wrong answer fails it.
    @Test(.alone) func parallelCopiesSpreadOverARange() async throws {
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let copies = min(20_000, Int(limit.rlim_max) - open - 500)
        try #require(copies >= 5_000, "the hard limit on open files, \(limit.rlim_max), leaves room for \(copies) copies")
        let result = try await ScenarioHarness.run("""
            set timeout 100s
            set deadline 240s
            var port = free-port
            spawn counter "python3 \(Self.counter) {port}" ready on 127.0.0.1:{port} within 10s
            parallel \(copies) {
              connect 127.0.0.1:{port} from 127.0.0.0/24
              send line "hello"
              expect line /^127\\.0\\.0\\.([1-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-4])$/
              expect eof
            }
            connect 127.0.0.1:{port}
            send line "stats"
            expect line "\(copies) connections from 254 addresses, \(copies / 254) to \((copies + 253) / 254) each"
            """)
        result.expectPassed()
        #expect(result.parallel.first?.passed == copies)
    }
}
