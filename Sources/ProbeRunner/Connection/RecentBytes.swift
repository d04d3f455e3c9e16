/// The last bytes received on a connection, kept for failure reports.
struct RecentBytes {
    let capacity: Int
    /// The kept bytes, a ring once full: the oldest is at `start` (0 until the ring is full).
    private var ring: [UInt8] = []
    private var start = 0
    private(set) var total = 0

    init(capacity: Int = 256) { self.capacity = capacity }

    /// The kept bytes, oldest first.
    var bytes: [UInt8] { Array(ring[start...] + ring[..<start]) }

    /// Keeps the last `capacity` bytes of what was kept and `new`: a copy of memory into the
    /// ring, as every read of every connection passes through here (moving the kept bytes
    /// down to make room cost ten times more).
    mutating func append(_ new: UnsafeRawBufferPointer) {
        total += new.count
        var rest = UnsafeRawBufferPointer(rebasing: new.suffix(capacity))
        if ring.count < capacity {
            let fill = min(capacity - ring.count, rest.count)
            ring.append(contentsOf: rest.prefix(fill))
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(fill))
        }
        // Full: the newest bytes overwrite the oldest, in at most two runs.
        while !rest.isEmpty {
            let run = min(capacity - start, rest.count)
            ring.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: start).copyMemory(from: rest.baseAddress!, byteCount: run) }
            start = start + run == capacity ? 0 : start + run
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(run))
        }
    }
}
