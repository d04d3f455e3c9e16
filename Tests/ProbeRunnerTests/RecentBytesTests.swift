@testable import ProbeRunner
import Testing

/// The last bytes a connection received, for failure reports: the newest `capacity` bytes
/// across reads of any size, and the count of all.
@Suite struct RecentBytesTests {
    @Test func itKeepsTheNewestBytesAcrossReadsOfAnySize() {
        var recent = RecentBytes(capacity: 4)
        [UInt8]([1, 2, 3]).withUnsafeBytes { recent.append($0) }
        #expect(recent.bytes == [1, 2, 3])
        [UInt8]([4, 5]).withUnsafeBytes { recent.append($0) }
        #expect(recent.bytes == [2, 3, 4, 5])
        (6...15).map(UInt8.init).withUnsafeBytes { recent.append($0) }
        #expect(recent.bytes == [12, 13, 14, 15])
        [UInt8]().withUnsafeBytes { recent.append($0) }
        #expect(recent.bytes == [12, 13, 14, 15])
        #expect(recent.total == 15)
    }

    /// Reads that wrap around the ring's end, one at a time and across it, against the bytes a
    /// plain array keeps, over every read size up to twice the capacity.
    @Test func readsAcrossTheRingsEndKeepTheNewestInOrder() {
        for size in 1...10 {
            var recent = RecentBytes(capacity: 5)
            var all: [UInt8] = []
            for read in 0..<7 {
                let bytes = (0..<size).map { UInt8(truncatingIfNeeded: read * 16 + $0) }
                bytes.withUnsafeBytes { recent.append($0) }
                all += bytes
                #expect(recent.bytes == Array(all.suffix(5)), "reads of \(size), after \(read + 1)")
            }
            #expect(recent.total == all.count)
        }
    }
}
