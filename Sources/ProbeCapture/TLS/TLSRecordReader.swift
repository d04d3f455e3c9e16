/// Cuts a TLS byte stream into records as it arrives, in pieces of any size. It keeps the
/// fragments of the content types asked for and only counts the others, and stops at the first
/// header that is not TLS (a peer that answers a ClientHello with plain text).
package struct TLSRecordReader: Sendable {
    /// One whole record.
    package struct Record: Sendable, Equatable {
        package var contentType: TLSContentType
        /// Where its header began in the stream.
        package var offset: Int
        package var length: Int
        /// Its fragment, when its content type is kept; else empty.
        package var fragment: [UInt8]
    }

    /// The content types whose fragments are kept.
    package var keeping: Set<TLSContentType>
    /// Set once a header is not TLS: the stream is no longer read.
    package private(set) var notTLS = false
    private var header: [UInt8] = []
    private var current: Record?
    private var remaining = 0
    private var position = 0

    package init(keeping: Set<TLSContentType> = []) {
        self.keeping = keeping
    }

    /// Takes the next bytes of the stream; returns the records they complete.
    package mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [Record] {
        var records: [Record] = []
        var index = bytes.startIndex
        while index != bytes.endIndex, !notTLS {
            if var record = current {
                let take = min(remaining, bytes.distance(from: index, to: bytes.endIndex))
                let end = bytes.index(index, offsetBy: take)
                if keeping.contains(record.contentType) { record.fragment += bytes[index..<end] }
                remaining -= take
                position += take
                index = end
                if remaining == 0 {
                    records.append(record)
                    current = nil
                } else {
                    current = record
                }
                continue
            }
            header.append(bytes[index])
            index = bytes.index(after: index)
            position += 1
            guard header.count == 5 else { continue }
            let length = Int(header[3]) << 8 | Int(header[4])
            guard let type = TLSContentType(rawValue: header[0]), header[1] == 3, length <= 18_432 else {
                notTLS = true
                break
            }
            let record = Record(contentType: type, offset: position - 5, length: length, fragment: [])
            header.removeAll(keepingCapacity: true)
            if length == 0 {
                records.append(record)
            } else {
                current = record
                remaining = length
            }
        }
        return records
    }
}

/// A TLS record's content type.
package enum TLSContentType: UInt8, Sendable, Hashable, CustomStringConvertible {
    case changeCipherSpec = 20
    case alert = 21
    case handshake = 22
    case applicationData = 23
    case heartbeat = 24

    package var description: String {
        switch self {
        case .changeCipherSpec: return "change-cipher-spec"
        case .alert: return "alert"
        case .handshake: return "handshake"
        case .applicationData: return "application-data"
        case .heartbeat: return "heartbeat"
        }
    }
}
