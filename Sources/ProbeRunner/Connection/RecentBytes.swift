/// The last bytes received on a connection, kept for failure reports.
struct RecentBytes {
    let capacity: Int
    private(set) var bytes: [UInt8] = []
    private(set) var total = 0

    init(capacity: Int = 256) { self.capacity = capacity }

    /// Keeps the last `capacity` bytes of what was kept and `new`; a copy of memory, as every
    /// read of every connection passes through here.
    mutating func append(_ new: UnsafeRawBufferPointer) {
        total += new.count
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: new.suffix(capacity)))
        if bytes.count > capacity { bytes.removeFirst(bytes.count - capacity) }
    }
}
