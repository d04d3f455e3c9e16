import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads the TCP segments of a pcap file that is still growing, a part at a time: each `read`
/// decodes only the records written since the last, so a scenario that checks the wire after
/// every step does not decode the whole capture again each time.
package struct PcapSegmentReader {
    package let path: String
    /// Each segment keeps at most this many bytes of its payload.
    package let payloadPrefix: Int
    package private(set) var segments: [TCPSegment] = []
    /// Where the next record starts: the first, at first.
    private var end = 0
    private var payloadBytes = 0

    package init(path: String, payloadPrefix: Int = .max) {
        self.path = path
        self.payloadPrefix = payloadPrefix
    }

    /// Adds the segments of the records written since the last read. A record still being
    /// written is left for the next read when `allowTruncatedTail`, else it is an error. Past
    /// `payloadLimit` bytes of payload in all it throws `tooLarge` and keeps what it had.
    package mutating func read(allowTruncatedTail: Bool, payloadLimit: Int = PcapFile.defaultPayloadLimit) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw PcapFile.ReadError.unreadable(reason: Self.whyUnreadable(path) ?? "\(error)")
        }
        var added: [TCPSegment] = []
        var payloadBytes = self.payloadBytes
        let end = try data.withUnsafeBytes { raw in
            try PcapFile.forEachRecord(in: raw, from: self.end, allowTruncatedTail: allowTruncatedTail) { record in
                guard let segment = PacketDecoder.segment(linkType: record.linkType, data: record.data, timestamp: record.timestamp,
                                                          payloadPrefix: payloadPrefix) else { return }
                payloadBytes += segment.payload.count
                guard payloadBytes <= payloadLimit else { throw PcapFile.ReadError.tooLarge(payloadLimit: payloadLimit) }
                added.append(segment)
            }
        }
        segments += added
        self.payloadBytes = payloadBytes
        self.end = end
    }

    /// The system's reason `path` cannot be read ("No such file or directory", "Permission
    /// denied", "Is a directory"); nil when none is seen.
    private static func whyUnreadable(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
        return String(cString: strerror(EISDIR))
    }
}
