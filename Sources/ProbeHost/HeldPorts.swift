#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The ports a scenario's `free-port` picked, each held by a socket bound to it on 127.0.0.1
/// until it is used: no other process can take the port in between. The scenario's own
/// `listen` on it takes the bound socket (`take`); before a subject or a proxy starts, which
/// may bind it themselves, every hold is let go (`releaseAll`), as it is when the run ends.
package final class HeldPorts: Sendable {
    private let sockets = Mutex<[Int: Int32]>([:])

    package init() {}

    deinit { releaseAll() }

    /// A free port, held until taken or released.
    package func pick(claims: PortClaims = .shared) -> Int? {
        guard let (port, fd) = FreePort.pickBound(claims: claims) else { return nil }
        sockets.withLock { $0[port] = fd }
        return port
    }

    /// The socket bound to `port` on 127.0.0.1, now the caller's to listen on and close; nil
    /// when the port is not held.
    package func take(_ port: Int) -> Int32? {
        sockets.withLock { $0.removeValue(forKey: port) }
    }

    /// Lets every held port go.
    package func releaseAll() {
        let held = sockets.withLock { sockets in
            defer { sockets.removeAll() }
            return Array(sockets.values)
        }
        for fd in held { close(fd) }
    }
}
