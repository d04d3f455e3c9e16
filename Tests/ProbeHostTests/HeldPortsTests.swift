#if canImport(Glibc)
import Glibc
#endif
import ProbeHost
import TestSupport
import Testing

/// A port `free-port` picked stays its scenario's until used: no one else can bind it, with
/// SO_REUSEADDR or without, until the scenario's listener takes the socket or lets it go.
@Suite struct HeldPortsTests {
    /// Binds 127.0.0.1:`port` with or without SO_REUSEADDR, and listens: true when it could.
    private func canListen(on port: Int, reuseAddress: Bool) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var one: Int32 = 1
        if reuseAddress { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        } && listen(fd, 1) == 0
    }

    @Test func aHeldPortIsNobodyElsesUntilTakenOrReleased() throws {
        let held = HeldPorts()
        let ports = try (0..<3).map { _ in try #require(held.pick()) }
        for port in ports {
            #expect(!canListen(on: port, reuseAddress: false), "\(port) was taken while held")
            #expect(!canListen(on: port, reuseAddress: true), "\(port) was taken with SO_REUSEADDR while held")
        }
        // Taken: the socket is bound to the port, and listens.
        let fd = try #require(held.take(ports[0]))
        defer { close(fd) }
        #expect(listen(fd, 1) == 0)
        #expect(LoopbackSocket.listens(on: ports[0]))
        #expect(held.take(ports[0]) == nil, "a socket is taken once")
        held.releaseAll()
        for port in ports.dropFirst() {
            #expect(canListen(on: port, reuseAddress: false), "\(port) stayed held after releaseAll")
        }
    }
}
