#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Plain IPv4 loopback sockets for tests: listeners, connections, ports nothing listens on.
public enum LoopbackSocket {
    /// A socket bound to `host` (127.0.0.1 unless said) at `port` (0: one the kernel picks),
    /// listening with `backlog` or not, and its port.
    public static func bound(port: Int = 0, address host: String = "127.0.0.1", listening: Bool, backlog: Int32 = 1) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = socketAddress(host, port)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && (!listening || listen(fd, backlog) == 0) && getsockname(fd, $0, &length) == 0
            }
        }
        if !ok { close(fd) }
        try #require(ok, "cannot bind \(host):\(port)")
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A socket connected to 127.0.0.1:`port`.
    public static func connected(to port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = socketAddress("127.0.0.1", port)
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        try #require(ok, "cannot connect to 127.0.0.1:\(port)")
        return fd
    }

    /// Whether something listens on 127.0.0.1:`port` (a connect there succeeds; it is closed at once).
    public static func listens(on port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = socketAddress("127.0.0.1", port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// `count` non-blocking connects to `host`:`port`, once the first of them has completed:
    /// enough of them fill the accept queue of a listener that never accepts, which then drops
    /// later SYNs. (At most 2 s: a test then sees the queue was not full.)
    public static func fillAcceptQueue(of host: String = "127.0.0.1", port: Int, count: Int) async -> [Int32] {
        let fds = startConnects(to: host, port: port, count: count)
        await Eventually.holds(within: .seconds(2), every: .milliseconds(5)) {
            fds.contains { fd in
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                return poll(&ready, 1, 0) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0
            }
        }
        return fds
    }

    /// `count` non-blocking connects to `host`:`port`, left to complete or not.
    private static func startConnects(to host: String, port: Int, count: Int) -> [Int32] {
        var address = socketAddress(host, port)
        return (0..<count).map { _ in
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            return fd
        }
    }

    /// A port of 127.0.0.1 nothing listens on (bound only for a moment).
    public static func closedPort() throws -> Int {
        let (fd, port) = try bound(listening: false)
        close(fd)
        return port
    }

    private static func socketAddress(_ host: String, _ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }
}
