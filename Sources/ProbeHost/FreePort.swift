#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Picks a TCP port that is free on the loopback interface right now.
///
/// It picks below the kernel's ephemeral range when there is room: a port from that range (as
/// binding port 0 gives) can be handed out as the source port of any outgoing connection in
/// the moment between the pick and the subject binding it, and the subject then fails to start.
/// Parallel scenarios connecting while others spawn servers made that happen.
///
/// A port is free from the pick until the subject binds it, tens of milliseconds later, and
/// two scenarios running side by side could pick the same one in that moment: a process never
/// hands out a port twice while under half of the range has been handed out, nor one that
/// another tcpprobe process has handed out (`PortClaims`).
package enum FreePort {
    /// Where picks below the ephemeral range start: clear of the well-known ports.
    package static let lowest = 10_000

    /// Ports this process has handed out.
    private static let handedOut = Mutex<Set<Int>>([])

    /// A free port, claimed in `claims` for other tcpprobe processes to leave alone.
    package static func pick(claims: PortClaims = .shared) -> Int? {
        guard let (port, fd) = pickBound(claims: claims) else { return nil }
        close(fd)
        return port
    }

    /// A free port and a socket bound to it on 127.0.0.1 (not listening, without SO_REUSEADDR):
    /// while the socket stays open, no other process can bind the port. The caller closes it.
    package static func pickBound(claims: PortClaims = .shared) -> (port: Int, fd: Int32)? {
        if let ephemeral = ephemeralRange(), ephemeral.lowerBound - lowest >= 1_000 {
            for _ in 0..<64 {
                let port = Int.random(in: lowest..<ephemeral.lowerBound)
                if claim(port, outOf: ephemeral.lowerBound - lowest, in: claims), let bound = bind(port) { return bound }
            }
        }
        return bind(0)
    }

    /// True when `port` was not handed out before, by this process or (in `claims`) another,
    /// and marks it so; forgets every port once half of the `range` ports have gone out, so a
    /// long run never runs dry.
    private static func claim(_ port: Int, outOf range: Int, in claims: PortClaims) -> Bool {
        handedOut.withLock { ports in
            if ports.count >= range / 2 {
                ports.removeAll(keepingCapacity: true)
                claims.releaseAll()
            }
            return ports.insert(port).inserted && claims.claim(port)
        }
    }

    /// The kernel's range for ports it picks itself (`ip_local_port_range`), where it says.
    package static func ephemeralRange() -> ClosedRange<Int>? {
        guard let file = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 64)
        guard fgets(&line, Int32(line.count), file) != nil else { return nil }
        let fields = String(cString: line).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) }
        guard fields.count == 2, fields[0] > 0, fields[0] <= fields[1] else { return nil }
        return fields[0]...fields[1]
    }

    /// Binds `port` (0: any) on 127.0.0.1: the port bound and the socket, or nil when taken.
    private static func bind(_ port: Int) -> (port: Int, fd: Int32)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                Glibc.bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            return nil
        }
        return (Int(UInt16(bigEndian: address.sin_port)), fd)
    }
}
