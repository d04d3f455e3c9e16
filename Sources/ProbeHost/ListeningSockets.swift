#if canImport(Glibc)
import Glibc
#endif

/// Whether anything listens on a TCP port, asked of the kernel's socket tables so that checking
/// readiness sends nothing to the subject (a probe connection would use up a one-shot accept).
package enum ListeningSockets {
    /// nil when neither sock_diag nor /proc/net can be read (then the caller falls back to connecting).
    package static func isListening(port: Int) -> Bool? {
        if let ports = listeningPortsBySockDiag() { return ports.contains(port) }
        return isListeningByProcNet(port: port)
    }

    /// Whether a listener on `port` takes connections to `host`: one bound to that address, or
    /// to the wildcard of its family (`[::]` takes IPv4 too unless it is v6-only). A host
    /// name, or a machine without sock_diag, asks only about the port.
    package static func isListening(port: Int, for host: String) -> Bool? {
        guard let target = IPAddressBytes(host) else { return isListening(port: port) }
        var found = false
        let dumped = SocketTable.forEach(states: 1 << UInt32(SocketTable.Entry.listenState)) { entry in
            if entry.localPort == port, target.isReached(through: entry) { found = true }
        }
        return dumped ? found : isListening(port: port)
    }

    /// The ports of every listening TCP socket, IPv4 and IPv6, from a netlink sock_diag dump
    /// (what `ss -lt` asks). Asking for listeners only, the kernel walks only its table of
    /// listeners, however many connections there are, where reading /proc/net/tcp takes time in
    /// proportion to every socket open. nil when the dump cannot be made.
    package static func listeningPortsBySockDiag() -> Set<Int>? {
        var ports = Set<Int>()
        let dumped = SocketTable.forEach(states: 1 << UInt32(SocketTable.Entry.listenState)) { ports.insert($0.localPort) }
        return dumped ? ports : nil
    }

    /// Whether anything listens on `port` in the network namespace of process `pid` (a subject
    /// spawned in a `network`), from its /proc/PID/net; nil when that cannot be read.
    package static func isListening(port: Int, inNetworkOf pid: Int32) -> Bool? {
        isListeningByProcNet(port: port, in: "/proc/\(pid)/net")
    }

    /// The same question from /proc/net/tcp and tcp6 (or those of `directory`); nil when
    /// neither can be read.
    package static func isListeningByProcNet(port: Int, in directory: String = "/proc/net") -> Bool? {
        var readAny = false
        for file in ["\(directory)/tcp", "\(directory)/tcp6"] {
            guard let bytes = try? WholeFile.bytes(atPath: file) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
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
