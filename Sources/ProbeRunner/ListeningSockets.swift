import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Whether anything listens on a TCP port, read from /proc/net/tcp and tcp6 so that checking
/// readiness sends nothing to the subject (a probe connection would use up a one-shot accept).
enum ListeningSockets {
    /// nil when /proc/net is not readable (then the caller falls back to connecting).
    static func isListening(port: Int) -> Bool? {
        var readAny = false
        for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = wholeFile(file) else { continue }
            readAny = true
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                // fields[1] is "ADDRESS:PORT" in hex, fields[3] the state: 0A is LISTEN.
                guard fields.count > 3, fields[3] == "0A", let colon = fields[1].lastIndex(of: ":"),
                      let local = Int(fields[1][fields[1].index(after: colon)...], radix: 16) else { continue }
                if local == port { return true }
            }
        }
        return readAny ? false : nil
    }

    /// All of a /proc file, read to its end. A /proc file reports a size of 0, and
    /// `String(contentsOfFile:)` then stops after its first 4 KiB: about 27 sockets, so a
    /// listener past them was never seen.
    static func wholeFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
