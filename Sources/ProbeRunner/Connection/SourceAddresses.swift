import ProbeScript
import Synchronization

/// Hands out the addresses of `connect … from NETWORK/PREFIX` in turn: each connection takes
/// the next address of its range, round robin, across a scenario and its `parallel` copies.
final class SourceAddresses: Sendable {
    private let next = Mutex<[SourceAddress: Int]>([:])

    /// The address (and port, 0 for the kernel's pick) the next connection from `source` binds.
    func take(_ source: SourceAddress) -> (host: String, port: Int) {
        switch source {
        case .address(let host, let port):
            return (host, port)
        case .range:
            let index = next.withLock { counters in
                defer { counters[source, default: 0] += 1 }
                return counters[source, default: 0]
            }
            return (source.host(at: index), 0)
        }
    }
}
