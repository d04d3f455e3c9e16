import Foundation
import Testing
import ProbeHost
import TestSupport

/// tcpprobe grows its descriptor table before it starts a thread, so opening a connection never
/// waits for the kernel to grow it during a step (`DescriptorTable`).
@Suite struct DescriptorTableStartTests {
    @Test func aRunStartsWithRoomForFourThousandDescriptors() async throws {
        // The table holds a power of two of descriptors, no more than the hard limit allows.
        var limit = rlimit()
        try #require(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let held = min(DescriptorTable.startingSize, Int(clamping: limit.rlim_max))
        var expected = 64
        while expected < held { expected *= 2 }
        let scenario = """
            spawn table "sh -c 'grep FDSize /proc/$PPID/status'"
            expect stdout table line /^FDSize:\\s+\(expected)$/
            expect exit table code 0

            """
        let output = try await ProbeProcess.run(["run", "table.scn"], with: ["table.scn": scenario])
        #expect(output.status == 0, "expected FDSize \(expected): \(output.stdout)\(output.stderr)")
    }
}
