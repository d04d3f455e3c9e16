import Foundation
import Testing
import TestSupport

/// A `parallel` block that cannot have a descriptor per connection fails before it starts,
/// with exit 3 and the numbers; one that fits runs under the same limit.
@Suite(.setpriv) struct DescriptorLimitTests {
    static func run(copies: Int) async throws -> ProbeProcess.Output {
        let scenario = """
            var port = free-port
            spawn server "linechat serve --port {port}" ready on 127.0.0.1:{port}
            parallel \(copies) {
              connect 127.0.0.1:{port}
              send line "ping"
              expect line "pong"
            }

            """
        // A hard limit of 256, and no CAP_SYS_RESOURCE to raise it (root could).
        let command = "ulimit -n 256 && exec setpriv --inh-caps=-sys_resource --bounding-set=-sys_resource \(ProbeProcess.binary.path) run many.scn"
        return try await ProbeProcess.run(["-c", command], with: ["many.scn": scenario], executable: URL(fileURLWithPath: "/bin/bash"))
    }

    @Test func aBlockThatCannotHaveItsDescriptorsFailsBeforeItStarts() async throws {
        let output = try await Self.run(copies: 1000)
        #expect(output.status == 3, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("at many.scn:3: parallel 1000"))
        #expect(output.stdout.contains("parallel 1000 needs about 1064 more file descriptors"), "\(output.stdout)")
        #expect(output.stdout.contains("but the limit is 256 (the hard limit too; fs.nr_open is"))
        #expect(!output.stdout.contains("copies passed"), "no copy ran")
    }

    @Test func aBlockThatFitsRuns() async throws {
        let output = try await Self.run(copies: 100)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("1 passed, 0 failed"), "\(output.stdout)")
    }
}
