import ProbeCapture
import ProbeHost
import ProbeResults
import ProbeScript
import Synchronization

/// The `network` steps of a run: each makes a namespace joined to the probe by a link whose
/// packets the probe forwards itself (`EmulatedNetwork`), and `NAME: FAULT` changes what the
/// link does to them. The run owns its networks (a `parallel` copy makes none) and removes them
/// at its end, after its subjects stopped. Touched from the run's tasks, one step at a time.
final class NetworkSteps {
    /// The networks made, by name.
    private var networks: [String: EmulatedNetwork] = [:]
    /// The packets each removed network's link dropped, for the report's ladder.
    private(set) var dropped: [(network: String, packets: [PacketLink.Dropped])] = []
    /// How many networks this process has made, for their names.
    private static let made = Atomic<Int>(0)

    func network(named name: String) -> EmulatedNetwork? { networks[name] }

    /// `network NAME [FAULT]...`: makes the namespace and its link, sets `{NAME.host}` and
    /// `{NAME.gateway}` (and `{NAME.host6}`, `{NAME.gateway6}` where there is IPv6), and
    /// applies the faults.
    func open(_ name: Name, _ faults: [NetworkFault], host: any StepHost, _ statement: Statement) async throws {
        guard networks[name.text] == nil else { throw StepFailure(statement, "a network named '\(name.text)' is already made") }
        if let missing = EmulatedNetwork.missingPrivilege {
            throw StepFailure(.environment, at: statement.location, step: statement.text, message: missing)
        }
        let changes = try faults.map { try LinkChange($0, host) }
        let index = Self.made.add(1, ordering: .relaxed).newValue
        let network: EmulatedNetwork
        do {
            network = try await EmulatedNetwork.make(name: name.text, index: index, seed: host.seed &+ UInt64(index))
        } catch {
            throw StepFailure(.environment, at: statement.location, step: statement.text, message: "cannot make network '\(name.text)': \(error)")
        }
        networks[name.text] = network
        // Its losses, jitter, reordering and duplicates are drawn from the run's seed.
        host.noteSeed()
        for change in changes { change.apply(to: network.link) }
        host.define("\(name.text).host", as: network.host)
        host.define("\(name.text).gateway", as: network.gateway)
        if let ipv6 = network.ipv6 {
            host.define("\(name.text).host6", as: ipv6.host)
            host.define("\(name.text).gateway6", as: ipv6.gateway)
        }
        let faultText = statement.text.split(separator: " ").dropFirst(2).joined(separator: " ")
        let ends = network.ipv6.map { "the subject's end \(network.host) and \($0.host), the probe's \(network.gateway) and \($0.gateway)" }
            ?? "the subject's end \(network.host), the probe's \(network.gateway) (no IPv6 here)"
        host.record(statement, "network '\(name.text)': namespace \(network.namespace.name), \(ends) (\(network.probeDevice))"
                    + (faultText.isEmpty ? ", a clean link" : ", \(faultText)"))
    }

    /// `NAME: FAULT` on a network: from the next packet on, with what the link did so far.
    func fault(_ fault: NetworkFault, host: any StepHost, _ statement: Statement) throws {
        guard let name = statement.connection?.text, statement.linkNumber == nil else {
            throw StepFailure(statement, "a network fault names its network alone, as in 'n: \(statement.step)'")
        }
        guard let network = networks[name] else {
            let made = networks.keys.sorted()
            throw StepFailure(statement, "no network named '\(name)' (\(made.isEmpty ? "none is made" : "made: " + made.joined(separator: ", ")))")
        }
        try LinkChange(fault, host).apply(to: network.link)
        host.record(statement, "network '\(name)': \(statement.step) from now on; so far \(Self.describe(network.link.counts))")
    }

    /// Removes every network, saying in the log what each link did.
    func removeAll(host: any StepHost) {
        for (name, network) in networks.sorted(by: { $0.key < $1.key }) {
            network.remove()
            let packets = network.link.dropped
            dropped.append((name, packets))
            host.record(nil, "network '\(name)' removed; its link carried \(Self.describe(network.link.counts))" + Self.name(packets))
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

    static func describe(_ counts: (upstream: LinkCounts, downstream: LinkCounts)) -> String {
        "upstream \(counts.upstream.summary); downstream \(counts.downstream.summary)"
    }
}
