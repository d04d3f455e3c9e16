#if canImport(Glibc)
import Glibc
#endif

/// Reads a file to its end with read(2), whatever it is: a regular file, a pipe such as
/// `/dev/stdin` or `<(generate-scenario)`, or a /proc file. Foundation's readers trust the
/// size the file reports, which is 0 for the last two: they gave nothing for a pipe and the
/// first 4 KiB of /proc/net/tcp.
package enum WholeFile {
    /// Why a file could not be read, in the words of the system.
    package struct Unreadable: Error, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "\(path): \(reason)" }

        package init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    package static func bytes(atPath path: String) throws -> [UInt8] {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        return try bytes(from: descriptor, path: path)
    }

    /// A descriptor open for reading `path`, or the system's reason why not.
    package static func openForReading(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Unreadable(path: path, reason: String(cString: strerror(errno))) }
        return descriptor
    }

    /// What `descriptor` (open on `path`) holds from where it stands to its end.
    package static func bytes(from descriptor: Int32, path: String) throws -> [UInt8] {
        var status = stat()
        var bytes: [UInt8] = []
        let told = fstat(descriptor, &status) == 0 && status.st_size > 0 ? Int(status.st_size) : 0
        bytes.reserveCapacity(told)
        // A chunk of the size told and one byte more, where it is told: a scenario is a few
        // hundred bytes, and a zeroed 64 KiB chunk for each of a suite's 147 files showed in
        // its load's profile.
        var chunk = [UInt8](repeating: 0, count: told > 0 ? min(told + 1, 64 * 1024) : 64 * 1024)
        while true {
            let count = Syscall.retryingInterrupts { chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) } }
            if count == 0 { return bytes }
            if count < 0 { throw Unreadable(path: path, reason: String(cString: strerror(errno))) }
            bytes += chunk[..<count]
        }
    }
}
