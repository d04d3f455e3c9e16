import Foundation
import TestSupport
import Testing

/// The HTTP/2 client suite (Scenarios/http2-client, h2spec's client cases), the probe as the
/// server of real clients, each case's verdict against what each client is known to do: curl
/// and nghttp here (TCPPROBE_SUITES=1, a step of .ci/run), python's httpx, slower to start, with
/// them in Tests/Fixtures/http2-peers/compare-peers.
@Suite(.serialized) struct HTTP2ClientSuiteTests {
    static let suite = ConformanceSuiteTests.scenarios + "/http2-client"

    /// Runs the whole suite with `client`, over TLS (`--tls`, the listener's certificate made at
    /// run time, ALPN h2) when `tls`: the ids (titles' first words) of the cases that
    /// failed, and how many ran.
    static func failedCases(client: String, tls: Bool = false) async throws -> (failed: Set<String>, count: Int) {
        try await ProbeProcess.inDirectory(holding: [:]) { directory in
            let report = directory.appendingPathComponent("report.json")
            let overTLS = tls ? ["--tls", "--var", "url=https://{host}:{port}/"] : []
            _ = try await ProbeProcess.run(["run", "--jobs", "4", "--report", "json=\(report.path)", "--var", "client=\(client)"] + overTLS + [suite])
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
            let scenarios = json?["scenarios"] as? [[String: Any]] ?? []
            let failed = scenarios.filter { $0["failure"] != nil }.compactMap { ($0["title"] as? String)?.split(separator: " ").first.map(String.init) }
            return (Set(failed), scenarios.count)
        }
    }

    /// curl answers every case as HTTP/2 requires.
    @Test(.curl, .wholeSuite) func curlPassesEveryCase() async throws {
        let run = try await Self.failedCases(client: "curl -s -o /dev/null --http2-prior-knowledge {url}")
        #expect(run.count == 57)
        #expect(run.failed.isEmpty, "\(run.failed.sorted())")
    }

    /// Over TLS (`run --tls`): each listener that an `accept … http2` takes offers ALPN h2, and
    /// curl (not verifying the certificate made at run time) and nghttp answer every case as
    /// over cleartext; without the ALPN, curl spoke HTTP/1.1 and every case failed.
    @Test(.curl, .nghttp, .wholeSuite) func curlAndNghttpPassEveryCaseOverTLS() async throws {
        for client in ["curl -s -k -o /dev/null --http2 {url}", "nghttp -n {url}"] {
            let run = try await Self.failedCases(client: client, tls: true)
            #expect(run.count == 57, "\(client)")
            #expect(run.failed.isEmpty, "\(client): \(run.failed.sorted())")
        }
    }

    /// nghttp, nghttp2's client, too.
    @Test(.nghttp, .wholeSuite) func nghttpPassesEveryCase() async throws {
        let run = try await Self.failedCases(client: "nghttp -n {url}")
        #expect(run.count == 57)
        #expect(run.failed.isEmpty, "\(run.failed.sorted())")
    }
}
