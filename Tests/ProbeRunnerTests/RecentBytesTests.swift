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
}
