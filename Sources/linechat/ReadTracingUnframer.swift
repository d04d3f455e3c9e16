import Foundation
import Transports

/// Wraps an unframer and writes the size of each read it is handed to stderr ("read N"), so a
/// benchmark can see how a peer's writes fell into this server's reads (`serve --trace-reads`).
struct ReadTracingUnframer: LineUnframer {
    var inner: any LineUnframer

    mutating func append(_ bytes: some Collection<UInt8>) throws -> [String] {
        FileHandle.standardError.write(Data("read \(bytes.count)\n".utf8))
        return try inner.append(bytes)
    }

    mutating func finish() -> [String] { inner.finish() }
}
