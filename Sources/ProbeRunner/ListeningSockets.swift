#if canImport(Glibc)
import Glibc
#endif

/// Whether anything listens on a TCP port, asked of the kernel's socket tables so that checking
/// readiness sends nothing to the subject (a probe connection would use up a one-shot accept).
enum ListeningSockets {
    /// nil when neither sock_diag nor /proc/net can be read (then the caller falls back to connecting).
    static func isListening(port: Int) -> Bool? {
        if let ports = listeningPortsBySockDiag() { return ports.contains(port) }
        return isListeningByProcNet(port: port)
    }

    /// The ports of every listening TCP socket, IPv4 and IPv6, from a netlink sock_diag dump
    /// (what `ss -lt` asks). Asking for listeners only, the kernel walks only its table of
    /// listeners, however many connections there are: reading /proc/net/tcp took about 22 ms
    /// with 8,000 sockets open. nil when the dump cannot be made.
    static func listeningPortsBySockDiag() -> Set<Int>? {
        let fd = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 4 /* NETLINK_SOCK_DIAG */)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var ports = Set<Int>()
        for family in [UInt8(AF_INET), UInt8(AF_INET6)] {
            guard dumpListeners(fd, family: family, into: &ports) else { return nil }
        }
        return ports
    }

    /// Sends one SOCK_DIAG_BY_FAMILY dump request for TCP listeners of `family` and reads the
    /// replies to their end; false on any error.
    private static func dumpListeners(_ fd: Int32, family: UInt8, into ports: inout Set<Int>) -> Bool {
        // struct nlmsghdr (16 bytes), then struct inet_diag_req_v2 (56 bytes), native byte order.
        var request = [UInt8](repeating: 0, count: 72)
        func put32(_ value: UInt32, at offset: Int) { withUnsafeBytes(of: value) { request.replaceSubrange(offset..<offset + 4, with: $0) } }
        func put16(_ value: UInt16, at offset: Int) { withUnsafeBytes(of: value) { request.replaceSubrange(offset..<offset + 2, with: $0) } }
        put32(72, at: 0)                    // nlmsg_len
        put16(20, at: 4)                    // SOCK_DIAG_BY_FAMILY
        put16(0x301, at: 6)                 // NLM_F_REQUEST | NLM_F_DUMP
        put32(1, at: 8)                     // nlmsg_seq
        request[16] = family                // sdiag_family
        request[17] = UInt8(IPPROTO_TCP)    // sdiag_protocol
        put32(1 << 10, at: 20)              // idiag_states: TCP_LISTEN only
        guard send(fd, request, request.count, 0) == request.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        for _ in 0..<10_000 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            var offset = 0
            while offset + 16 <= count {
                let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) })
                let type = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt16.self) }
                guard length >= 16, offset + length <= count else { return false }
                switch type {
                case 3: return true                 // NLMSG_DONE
                case 2: return false                // NLMSG_ERROR
                default:
                    // struct inet_diag_msg: the socket's id starts at byte 4, its port (big-endian) first.
                    if length >= 16 + 6 { ports.insert(Int(buffer[offset + 20]) << 8 | Int(buffer[offset + 21])) }
                }
                offset += (length + 3) & ~3
            }
        }
        return false
    }

    /// The same question from /proc/net/tcp and tcp6; nil when neither can be read.
    static func isListeningByProcNet(port: Int) -> Bool? {
        var readAny = false
        for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
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
