/// The bytes of one `send`: held in memory, `count` bytes of the scenario's seeded random
/// stream, made as they are written so `send random 10GiB` never holds more than one write, or
/// a regular file, read as it is written.
enum SendPayload: Sendable {
    case bytes([UInt8])
    case random(count: Int)
    case file(FileSlices)

    var count: Int {
        switch self {
        case .bytes(let bytes): return bytes.count
        case .random(let count): return count
        case .file(let file): return file.count
        }
    }
}
