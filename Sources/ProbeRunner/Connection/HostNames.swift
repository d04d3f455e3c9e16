#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix
import Synchronization

/// The addresses `connect` tries for a host: an IP address as it is, a host name through the
/// system's resolver, once per run (the copies of a `parallel` block share the one lookup).
final class HostNames: Sendable {
    /// A host name the resolver does not know.
    struct Unresolved: Error, CustomStringConvertible {
        let host: String
        let reason: String
        var description: String { "cannot resolve \(host): \(reason)" }
    }

    /// Each host name's lookup, started by the first connect that needed it.
    private let lookups = Mutex<[String: EventLoopFuture<[SocketAddress]>]>([:])
    /// Host names answered without asking the resolver.
    private let known: [String: [SocketAddress]]

    /// `known`: host names answered without asking the resolver (ports are replaced).
    init(known: [String: [SocketAddress]] = [:]) {
        self.known = known
    }

    /// Where `host:port` may be reached, in the order the system prefers (`localhost`: mostly
    /// ::1, then 127.0.0.1); an IP address at once.
    func addresses(of host: String, port: Int, on loop: EventLoop) -> EventLoopFuture<[SocketAddress]> {
        if let ip = try? SocketAddress(ipAddress: host, port: port) { return loop.makeSucceededFuture([ip]) }
        if let addresses = known[host] { return loop.makeSucceededFuture(Self.with(port, addresses)) }
        let lookup = lookups.withLock { lookups in
            if let started = lookups[host] { return started }
            // getaddrinfo blocks (on DNS, for seconds): on NIO's thread pool, not on the loop.
            let started = NIOThreadPool.singleton.runIfActive(eventLoop: loop) { try Self.lookUp(host) }
            lookups[host] = started
            return started
        }
        return lookup.hop(to: loop).map { Self.with(port, $0) }
    }

    private static func with(_ port: Int, _ addresses: [SocketAddress]) -> [SocketAddress] {
        addresses.map { address in
            var address = address
            address.port = port
            return address
        }
    }

    private static func lookUp(_ host: String) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw Unresolved(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        for entry in sequence(first: first, next: { $0.pointee.ai_next }) {
            guard let raw = entry.pointee.ai_addr else { continue }
            switch entry.pointee.ai_family {
            case AF_INET:
                addresses.append(raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { SocketAddress($0.pointee, host: host) })
            case AF_INET6:
                addresses.append(raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { SocketAddress($0.pointee, host: host) })
            default:
                continue
            }
        }
        guard !addresses.isEmpty else { throw Unresolved(host: host, reason: "no IPv4 or IPv6 address") }
        return addresses
    }
}
