import Foundation
import Testing
@testable import ProbeHost

/// The descriptor table grows to hold what is asked, and never takes the place of a descriptor
/// already open.
@Suite struct DescriptorTableTests {
    /// The table's size now, from /proc/self/status.
    static func tableSize() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("FDSize:") })
        return try #require(Int(line.dropFirst("FDSize:".count).trimmingCharacters(in: .whitespaces)))
    }

    @Test func theTableGrowsToHoldWhatIsAskedAndKeepsWhatIsOpen() throws {
        DescriptorLimit.raiseToHard()
        let soft = try #require(DescriptorLimit.current()).rlim_cur
        let wanted = Int(min(soft, 6000))
        try #require(wanted > 1024, "a soft limit of \(soft) leaves nothing to grow into")
        // A descriptor already open where the growth would reach: it must stay as it is.
        let pipe = Pipe()
        let top = dup2(pipe.fileHandleForWriting.fileDescriptor, Int32(wanted - 1))
        try #require(top == Int32(wanted - 1))
        defer { close(top) }
        DescriptorTable.grow(toHold: wanted)
        #expect(try Self.tableSize() >= wanted)
        let written = "still the pipe".utf8CString.withUnsafeBytes { write(top, $0.baseAddress, $0.count) }
        #expect(written == 15, "the descriptor at the top was replaced or closed")
    }
}
