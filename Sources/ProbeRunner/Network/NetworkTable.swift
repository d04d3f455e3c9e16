import ProbeCapture
import ProbeHost
import ProbeScript
import Synchronization

/// The networks of a run, which its copies share: made by the run's `network` steps, removed
/// at its end, after its subjects stopped. Touched from the run's tasks, one step at a time.
final class NetworkTable {
    /// The networks made, by name.
    private var networks: [String: EmulatedNetwork] = [:]
    /// The packets each removed network's link dropped, for the report's ladder.
    private(set) var dropped: [(network: String, packets: [PacketLink.Dropped])] = []
    /// How many networks this process has made, for their names.
    private static let made = Atomic<Int>(0)

    /// The number of the next network this process makes.
    static func nextIndex() -> Int { made.add(1, ordering: .relaxed).newValue }

    func network(named name: String) -> EmulatedNetwork? { networks[name] }

    /// The names of the networks made, sorted, for messages.
    var names: [String] { networks.keys.sorted() }

    func add(_ network: EmulatedNetwork, named name: String) { networks[name] = network }

    /// Removes every network, saying in the log what each link did.
    func removeAll(record: (String) -> Void) {
        for (name, network) in networks.sorted(by: { $0.key < $1.key }) {
            network.remove()
            let packets = network.link.dropped
            dropped.append((name, packets))
            record("network '\(name)' removed; its link carried \(NetworkSteps.describe(network.link.counts))" + Self.name(packets))
        }
        networks = [:]
    }

    /// The first dropped packets, each named: "; dropped: upstream TCP 198.18.0.1:40000 > 198.18.0.2:6379 SYN len 0, …".
    private static func name(_ packets: [PacketLink.Dropped]) -> String {
        guard !packets.isEmpty else { return "" }
        let shown = packets.prefix(5).map { packet in
            let way = packet.direction == .upstream ? "upstream" : "downstream"
            guard let segment = packet.head.withUnsafeBytes({ PacketDecoder.segment(linkType: PacketDecoder.raw, data: $0, timestamp: packet.time) }) else {
                return "\(way) a packet of \(packet.head.count)+ bytes, not TCP"
            }
            return "\(way) \(segment.sourceAddress):\(segment.sourcePort) > \(segment.destinationAddress):\(segment.destinationPort) \(segment.flags.description) seq \(segment.sequence) len \(segment.length)"
        }
        return "; dropped: " + shown.joined(separator: ", ") + (packets.count > 5 ? ", and \(packets.count - 5) more" : "")
    }
}
