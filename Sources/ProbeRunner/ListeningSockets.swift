import FoundationEssentials

/// Whether anything listens on a TCP port, read from /proc/net/tcp and tcp6 so that checking
/// readiness sends nothing to the subject (a probe connection would use up a one-shot accept).
enum ListeningSockets {
    /// nil when /proc/net is not readable (then the caller falls back to connecting).
    static func isListening(port: Int) -> Bool? {
        var readAny = false
        for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
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
}
