import Foundation
import Testing
@testable import ProbeHost

/// Files are read to their end, not by the size they report.
@Suite struct WholeFileTests {
    @Test func aPipeIsReadToItsEnd() async throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let written = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let writer = Task.detached { [writeEnd = ends[1]] in
            written.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let count = write(writeEnd, raw.baseAddress! + offset, raw.count - offset)
                    if count <= 0 { break }
                    offset += count
                }
            }
            close(writeEnd)
        }
        defer { close(ends[0]) }
        let read = try WholeFile.bytes(atPath: "/dev/fd/\(ends[0])")
        await writer.value
        #expect(read == written, "read \(read.count) of \(written.count) bytes")
    }

    @Test func regularEmptyMissingAndDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("f.bin"), empty = directory.appendingPathComponent("empty")
        try Data([1, 2, 3, 0, 255]).write(to: file)
        try Data().write(to: empty)
        #expect(try WholeFile.bytes(atPath: file.path) == [1, 2, 3, 0, 255])
        #expect(try WholeFile.bytes(atPath: empty.path) == [])
        #expect(throws: WholeFile.Unreadable.self) { try WholeFile.bytes(atPath: directory.appendingPathComponent("none").path) }
        do {
            _ = try WholeFile.bytes(atPath: directory.path)
            Issue.record("a directory was read as a file")
        } catch let error as WholeFile.Unreadable {
            #expect(error.reason == "Is a directory")
        }
    }
}
