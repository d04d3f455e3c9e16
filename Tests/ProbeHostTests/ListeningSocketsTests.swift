import Foundation
import TestSupport
import Testing
@testable import ProbeHost

/// Readiness by port reads the kernel's socket tables; it must see a listener however many
/// sockets come before it there.
@Suite struct ListeningSocketsTests {
    @Test func everyOneOfEightyListenersIsSeenBothWays() throws {
        // 80 listeners fill about 12 KiB of /proc/net/tcp; reading only its first 4 KiB (what
        // String(contentsOfFile:) does with a file that reports size 0) sees about 27 sockets.
        var listeners: [(fd: Int32, port: Int)] = []
        defer { listeners.forEach { close($0.fd) } }
        for _ in 0..<80 { listeners.append(try LoopbackSocket.bound(listening: true)) }
        // Bound but not listening: the port stays this socket's, so no other test can listen on it.
        let bound = try LoopbackSocket.bound(listening: false)
        defer { close(bound.fd) }

        let diagnosed = try #require(ListeningSockets.listeningPortsBySockDiag(), "the sock_diag dump failed")
        let unseenByDiag = listeners.map(\.port).filter { !diagnosed.contains($0) }
        #expect(unseenByDiag.isEmpty, "sock_diag missed \(unseenByDiag.count) of 80 listeners")
        #expect(!diagnosed.contains(bound.port), "a socket that does not listen is not listening")

        let unseenInProc = listeners.filter { ListeningSockets.isListeningByProcNet(port: $0.port) != true }.map(\.port)
        #expect(unseenInProc.isEmpty, "/proc/net/tcp missed \(unseenInProc.count) of 80 listeners")
        #expect(ListeningSockets.isListeningByProcNet(port: bound.port) == false)

        #expect(listeners.allSatisfy { ListeningSockets.isListening(port: $0.port) == true })
        #expect(ListeningSockets.isListening(port: bound.port) == false)
    }

    /// Readiness on HOST:PORT asks for a listener that takes connections to HOST.
    @Test func aListenerIsMatchedToTheAddressesItTakes() throws {
        let listener = try LoopbackSocket.bound(address: "127.0.0.2", listening: true)
        defer { close(listener.fd) }
        #expect(ListeningSockets.isListening(port: listener.port, for: "127.0.0.2") == true)
        #expect(ListeningSockets.isListening(port: listener.port, for: "127.0.0.1") == false)
        #expect(ListeningSockets.isListening(port: listener.port, for: "::1") == false)
        #expect(ListeningSockets.isListening(port: listener.port, for: "localhost") == true, "a host name asks only about the port")

        func entry(_ family: Int32, _ address: String, v6Only: Bool = false) -> SocketTable.Entry {
            let bytes = IPAddressBytes(address)!.bytes
            return SocketTable.Entry(family: family, state: SocketTable.Entry.listenState, localPort: 1, remotePort: 0, inode: 0,
                                     localAddress: bytes, remoteAddress: SIMD16(), v6Only: v6Only)
        }
        let v4 = IPAddressBytes("127.0.0.1")!, v6 = IPAddressBytes("::1")!
        #expect(v4.isReached(through: entry(AF_INET, "0.0.0.0")) && !v6.isReached(through: entry(AF_INET, "0.0.0.0")))
        #expect(v4.isReached(through: entry(AF_INET6, "::")) && v6.isReached(through: entry(AF_INET6, "::")))
        #expect(!v4.isReached(through: entry(AF_INET6, "::", v6Only: true)) && v6.isReached(through: entry(AF_INET6, "::", v6Only: true)))
        #expect(v4.isReached(through: entry(AF_INET6, "::ffff:127.0.0.1")) && !v4.isReached(through: entry(AF_INET6, "::ffff:127.0.0.2")))
        #expect(v6.isReached(through: entry(AF_INET6, "::1")) && !v4.isReached(through: entry(AF_INET6, "::1")))
        #expect(IPAddressBytes("localhost") == nil)
    }

    /// The dump reads each IPv6 listener's IPV6_V6ONLY: set by the kernel on one bound to ::1,
    /// not on one bound to the IPv4-mapped ::ffff:127.0.0.1.
    @Test func theDumpTellsAV6OnlyListener() throws {
        var ports: [Int32: Int] = [:]
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        for v6Only: Int32 in [0, 1] {
            let fd = Glibc.socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
            sockets.append(fd)
            var flag = v6Only
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &flag, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            _ = inet_pton(AF_INET6, v6Only == 1 ? "::1" : "::ffff:127.0.0.1", &address.sin6_addr)
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            let ok = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            try #require(ok, "cannot listen (v6only \(v6Only))")
            ports[v6Only] = Int(UInt16(bigEndian: address.sin6_port))
        }
        var seen: [Int: Bool] = [:]
        #expect(SocketTable.forEach(states: 1 << UInt32(SocketTable.Entry.listenState)) { seen[$0.localPort] = $0.v6Only })
        #expect(seen[ports[0]!] == false && seen[ports[1]!] == true, "\(seen.filter { ports.values.contains($0.key) })")
    }

    @Test func sockDiagSeesIPv6ListenersToo() throws {
        let fd = Glibc.socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(ok, "cannot listen on ::1")
        let port = Int(UInt16(bigEndian: address.sin6_port))
        #expect(try #require(ListeningSockets.listeningPortsBySockDiag()).contains(port))
        #expect(ListeningSockets.isListeningByProcNet(port: port) == true)
    }
}
