import ProbeHost
import ProbeScript

/// The subjects a scenario, or a copy of a `parallel` block, has spawned, and the ports they
/// were made ready on.
struct ScenarioSubjects {
    private var byName: [String: Subject] = [:]
    /// Subjects made ready on a port, until a `kill` or `expect exit` ends them on purpose: one
    /// that exits 0 on its own while the port still listens has left a server in the background.
    var readyPorts: [String: (address: Address, statement: Statement)] = [:]
    /// The subject each `ready on` port was for, kept to the scenario's end: a server left
    /// listening there in the background is stopped with the scenario's subjects.
    var portOwners: [Int: String] = [:]

    subscript(name: String) -> Subject? {
        get { byName[name] }
        set { byName[name] = newValue }
    }

    var isEmpty: Bool { byName.isEmpty }

    /// Their names, sorted, for messages.
    var names: [String] { byName.keys.sorted() }

    /// Every subject, in name order.
    var all: [Subject] { byName.values.sorted { $0.name < $1.name } }
}
