import Glibc
import Testing
@testable import ProbeHost

/// The one write loop every writer of tcpprobe uses.
struct SyscallTests {
    @Test func writeAllWritesMoreThanAPipeTakesAtOnce() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        // The writer on a thread of its own: a pipe holds 64 KiB, so its writes are cut short
        // until this thread reads. A failed write ends the stream early, which the check sees.
        let writeEnd = ends[1]
        DetachedThread.run {
            try? Syscall.writeAll(bytes, to: writeEnd)
            close(writeEnd)
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        for _ in 0..<10_000 {
            let count = Syscall.retryingInterrupts { read(ends[0], &chunk, chunk.count) }
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        #expect(received == bytes)
    }

    @Test func writeAllSaysWhyItStopped() {
        let readOnly = open("/dev/null", O_RDONLY)
        defer { close(readOnly) }
        let failure = #expect(throws: Syscall.WriteFailure.self) { try Syscall.writeAll([1, 2, 3], to: readOnly) }
        #expect(failure?.code == EBADF)
    }
}
