#if canImport(Glibc)
import Glibc
#endif

/// The machine's TCP sockets as the kernel lists them over netlink sock_diag (what `ss` asks):
/// listeners, connections, TIME-WAIT and sockets bound but not listening, IPv4 and IPv6.
package enum SocketTable {
    /// One socket of the dump.
    package struct Entry {
        let family: Int32
        /// The kernel's TCP state number (10 is LISTEN).
        let state: UInt8
        let localPort: Int
        let remotePort: Int
        /// The socket's inode, which /proc/PID/fd links name as socket:[inode]; 0 for TIME-WAIT.
        let inode: UInt32
        let localAddress: SIMD16<UInt8>
        let remoteAddress: SIMD16<UInt8>
        /// An IPv6 listener that takes no IPv4 connections (IPV6_V6ONLY).
        var v6Only = false

        static let listenState: UInt8 = 10
        static let timeWaitState: UInt8 = 6

        /// The state as `ss` names it.
        var stateName: String {
            let names = ["", "ESTAB", "SYN-SENT", "SYN-RECV", "FIN-WAIT-1", "FIN-WAIT-2", "TIME-WAIT",
                         "BOUND (not listening)", "CLOSE-WAIT", "LAST-ACK", "LISTEN", "CLOSING"]
            return Int(state) < names.count && state > 0 ? names[Int(state)] : "state \(state)"
        }

        var local: String { Self.format(localAddress, localPort, family: family) }
        var remote: String { Self.format(remoteAddress, remotePort, family: family) }

        private static func format(_ address: SIMD16<UInt8>, _ port: Int, family: Int32) -> String {
            var text = [CChar](repeating: 0, count: 64)
            var bytes = address
            let printed = withUnsafeBytes(of: &bytes) { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) != nil }
            let host = printed ? String(cString: text) : "?"
            return family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }

    /// Bit `1 << state` for each state wanted; every state by default.
    package static let allStates: UInt32 = 0xFFFF_FFFF

    /// Calls `body` with every TCP socket in one of `states`, IPv4 then IPv6; false when the
    /// dump cannot be made (no netlink, or an error on the way).
    package static func forEach(states: UInt32 = allStates, _ body: (Entry) -> Void) -> Bool {
        let fd = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 4 /* NETLINK_SOCK_DIAG */)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        for family in [UInt8(AF_INET), UInt8(AF_INET6)] {
            guard dump(fd, family: family, states: states, body) else { return false }
        }
        return true
    }

    /// Sends one SOCK_DIAG_BY_FAMILY dump request for TCP sockets of `family` and reads the
    /// replies to their end; false on any error.
    private static func dump(_ fd: Int32, family: UInt8, states: UInt32, _ body: (Entry) -> Void) -> Bool {
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
        put32(states, at: 20)               // idiag_states
        guard send(fd, request, request.count, 0) == request.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        for _ in 0..<100_000 {
            let count = Syscall.retryingInterrupts { buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
            guard count > 0 else { return false }
            let done: Bool? = buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + 16 <= count {
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                    let type = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt16.self)
                    guard length >= 16, offset + length <= count else { return false }
                    switch type {
                    case 3: return true                 // NLMSG_DONE
                    case 2: return false                // NLMSG_ERROR
                    default:
                        // struct inet_diag_msg: family, state, timer, retrans; the socket's id
                        // (ports big-endian, then source and destination addresses); expires,
                        // queues, uid; inode at byte 68.
                        if length >= 16 + 72 { body(entry(bytes, at: offset + 16, end: offset + length)) }
                    }
                    offset += (length + 3) & ~3
                }
                return nil
            }
            if let done { return done }
        }
        return false
    }

    private static func entry(_ bytes: UnsafeRawBufferPointer, at message: Int, end: Int) -> Entry {
        func port(_ offset: Int) -> Int { Int(bytes[message + offset]) << 8 | Int(bytes[message + offset + 1]) }
        var entry = Entry(family: Int32(bytes[message]), state: bytes[message + 1], localPort: port(4), remotePort: port(6),
                          inode: bytes.loadUnaligned(fromByteOffset: message + 68, as: UInt32.self),
                          localAddress: bytes.loadUnaligned(fromByteOffset: message + 8, as: SIMD16<UInt8>.self),
                          remoteAddress: bytes.loadUnaligned(fromByteOffset: message + 24, as: SIMD16<UInt8>.self))
        // Attributes follow (struct rtattr: length, type); the kernel adds INET_DIAG_SKV6ONLY
        // (11) to every IPv6 listener.
        var attribute = message + 72
        while attribute + 4 <= end {
            let length = Int(bytes.loadUnaligned(fromByteOffset: attribute, as: UInt16.self))
            let type = bytes.loadUnaligned(fromByteOffset: attribute + 2, as: UInt16.self)
            guard length >= 4, attribute + length <= end else { break }
            if type == 11, length >= 5 { entry.v6Only = bytes[attribute + 4] != 0 }
            attribute += (length + 3) & ~3
        }
        return entry
    }
}
