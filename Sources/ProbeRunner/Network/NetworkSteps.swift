import ProbeCapture
import ProbeHost
import ProbeResults
import ProbeScript
import Synchronization

/// The `network` steps of a scenario or `parallel` copy: `network NAME [FAULT]...` makes a
/// namespace joined to the probe by a link whose packets the probe forwards itself
/// (`EmulatedNetwork`), and `NAME: FAULT` changes what the link does to them. The run's networks
/// are its `NetworkTable`'s: a copy makes none, but may change their links.
final class NetworkSteps {
    private unowned let context: any StepContext
    private let table: NetworkTable
    /// True for a `parallel` copy, which cannot make a network.
    private let isCopy: Bool

    init(context: any StepContext, table: NetworkTable, isCopy: Bool) {
        self.context = context
        self.table = table
        self.isCopy = isCopy
    }

    /// Runs `statement`: `network NAME [FAULT]...` or `NAME: FAULT` on a network.
    func run(_ statement: Statement) async throws {
        switch statement.kind {
        case .network(let name, let faults):
            guard !isCopy else { throw StepFailure(statement, NetworkFailure.madeInCopy) }
            try await open(name, faults, statement)
        case .networkFault(let fault): try self.fault(fault, statement)
        default: preconditionFailure("not a network step: \(statement.text)")
        }
    }

    /// `network NAME [FAULT]...`: makes the namespace and its link, sets `{NAME.host}` and
    /// `{NAME.gateway}` (and `{NAME.host6}`, `{NAME.gateway6}` where there is IPv6), and
    /// applies the faults.
    private func open(_ name: Name, _ faults: [NetworkFault], _ statement: Statement) async throws {
        guard table.network(named: name.text) == nil else { throw StepFailure(statement, CommonFailure.nameTaken(what: "network", name: name.text, state: "made")) }
        if let missing = EmulatedNetwork.missingPrivilege {
            throw StepFailure(statement, NetworkFailure.missingPrivilege(missing))
        }
        let changes = try faults.map { try LinkChange($0, context) }
        let index = NetworkTable.nextIndex()
        let network: EmulatedNetwork
        do {
            network = try await EmulatedNetwork.make(name: name.text, index: index, seed: context.seed &+ UInt64(index))
        } catch {
            throw StepFailure(statement, NetworkFailure.cannotMake(name: name.text, error: "\(error)"))
        }
        table.add(network, named: name.text)
        // Its losses, jitter, reordering and duplicates are drawn from the run's seed.
        context.noteSeed()
        for change in changes { change.apply(to: network.link) }
        context.define("\(name.text).host", as: network.host)
        context.define("\(name.text).gateway", as: network.gateway)
        if let ipv6 = network.ipv6 {
            context.define("\(name.text).host6", as: ipv6.host)
            context.define("\(name.text).gateway6", as: ipv6.gateway)
        }
        let faultText = statement.text.split(separator: " ").dropFirst(2).joined(separator: " ")
        let ends = network.ipv6.map { "the subject's end \(network.host) and \($0.host), the probe's \(network.gateway) and \($0.gateway)" }
            ?? "the subject's end \(network.host), the probe's \(network.gateway) (no IPv6 here)"
        context.record(statement, "network '\(name.text)': namespace \(network.namespace.name), \(ends) (\(network.probeDevice))"
                    + (faultText.isEmpty ? ", a clean link" : ", \(faultText)"))
    }

    /// `NAME: FAULT` on a network: from the next packet on, with what the link did so far.
    private func fault(_ fault: NetworkFault, _ statement: Statement) throws {
        guard let name = statement.connection?.text, statement.linkNumber == nil else {
            throw StepFailure(statement, NetworkFailure.faultNamesLink(step: String(statement.step)))
        }
        guard let network = table.network(named: name) else {
            throw StepFailure(statement, CommonFailure.unknown(what: "network", name: name, known: table.names, none: "none is made", listed: "made"))
        }
        try LinkChange(fault, context).apply(to: network.link)
        context.record(statement, "network '\(name)': \(statement.step) from now on; so far \(Self.describe(network.link.counts))")
    }

    static func describe(_ counts: (upstream: LinkCounts, downstream: LinkCounts)) -> String {
        "upstream \(counts.upstream.summary); downstream \(counts.downstream.summary)"
    }
}
