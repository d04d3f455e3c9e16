import Foundation
import Testing
import TestSupport

/// A connect that finds no ephemeral port left fails as the environment's fault (exit 3),
/// naming the range and the way past it; a `from` range is that way. Each run is made in a
/// network namespace of its own, whose range is 16 ports wide.
@Suite(.root, .unshare, .ip) struct EphemeralPortTests {
    /// Runs 40 copies that each hold a connection to one server for 300 ms.
    static func run(connect: String) async throws -> ProbeProcess.Output {
        let scenario = """
            var port = free-port
            spawn server "linechat serve --port {port}" ready on 127.0.0.1:{port}
            parallel 40 {
              \(connect)
              sleep 300ms
            }

            """
        let namespace = "ip link set lo up && echo '40000 40015' > /proc/sys/net/ipv4/ip_local_port_range"
        return try await ProbeProcess.run(["--net", "/bin/bash", "-c", "\(namespace) && exec \(ProbeProcess.binary.path) run many.scn"],
                                          with: ["many.scn": scenario], executable: URL(fileURLWithPath: "/usr/bin/unshare"))
    }

    @Test func runningOutOfPortsIsAnEnvironmentErrorThatSaysSo() async throws {
        let output = try await Self.run(connect: "connect 127.0.0.1:{port}")
        #expect(output.status == 3, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("16 of 40 copies passed, 24 failed"), "\(output.stdout)")
        #expect(output.stdout.contains("no local port left to connect from: the kernel's ephemeral ports (40000-40015, net.ipv4.ip_local_port_range)"))
        #expect(output.stdout.contains("`connect … from 127.0.0.0/8`"))
    }

    @Test func aFromRangeGetsPastThem() async throws {
        let output = try await Self.run(connect: "connect 127.0.0.1:{port} from 127.0.0.0/8")
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("40 of 40 copies passed"), "\(output.stdout)")
    }
}
