/// The last bytes received on a connection, kept for failure reports.
struct RecentBytes {
    let capacity: Int
    private(set) var bytes: [UInt8] = []
    private(set) var total = 0

    init(capacity: Int = 256) { self.capacity = capacity }

    mutating func append<Bytes: Collection>(_ new: Bytes) where Bytes.Element == UInt8 {
        total += new.count
        bytes.append(contentsOf: new.suffix(capacity))
        if bytes.count > capacity { bytes.removeFirst(bytes.count - capacity) }
    }
}
