/// The bytes of one `send`: held in memory, or `count` bytes of the scenario's seeded random
/// stream, made as they are written so `send random 10GiB` never holds more than one write.
enum SendPayload {
    case bytes([UInt8])
    case random(count: Int)

    var count: Int {
        switch self {
        case .bytes(let bytes): return bytes.count
        case .random(let count): return count
        }
    }
}
