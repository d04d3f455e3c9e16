import NIOCore
import ProbeResults
import ProbeScript

/// The connections and listeners a scenario, or a copy of a `parallel` block, has opened, and
/// the connection an unprefixed step acts on (its proxies are `ProxySteps`'). The families
/// whose steps act on a connection are given it. Touched on the run's loop only.
final class ConnectionTable {
    // The `@exclusivity(unchecked)` vars here: docs/development.md, "Unchecked accesses".
    @exclusivity(unchecked) private(set) var connections: [String: ProbeConnection] = [:]
    private(set) var listeners: [String: ProbeListener] = [:]
    /// The connection the last `use` named, or else the one opened last.
    @exclusivity(unchecked) private(set) var current: ProbeConnection?
    /// How many unnamed connections have been opened: the next is "#(count + 1)".
    private var unnamed = 0

    init() {}

    /// A copy of a `parallel` block's table: none of the parent's connections, but unnamed ones
    /// numbered on from the parent's, so a copy's "#3" is not taken for the parent's.
    init(continuingFrom parent: ConnectionTable) {
        unnamed = parent.unnamed
    }

    /// The connection a step acts on: its `NAME:` prefix, else the last `use`d or opened one;
    /// one the probe closed only when `allowClosed`.
    func target(_ statement: Statement, allowClosed: Bool = false) throws -> ProbeConnection {
        let connection: ProbeConnection
        if let name = statement.connection {
            guard statement.linkNumber == nil, let named = connections[name.text] else { throw unknownConnection(statement) }
            connection = named
        } else {
            guard let current else {
                throw StepFailure(statement, ConnectionFailure.noConnection)
            }
            connection = current
        }
        if !allowClosed, connection.isClosed, let closedAt = connection.closedAt {
            throw StepFailure(statement, ConnectionFailure.closedByProbe(connection: connection.label, at: closedAt.fileAndLine), connection)
        }
        return connection
    }

    /// The failure of a step that names a connection not open.
    func unknownConnection(_ statement: Statement, named name: String? = nil) -> StepFailure {
        StepFailure(statement, CommonFailure.unknown(what: "connection", name: name ?? statement.prefix ?? "", known: names,
                                                     none: "no named connection is open", listed: "open"))
    }

    /// True when a listener is open under `name`, which a proxy then cannot take.
    func hasListener(named name: String) -> Bool { listeners[name] != nil }

    /// True when one of its listeners has `port`.
    func hasListener(onPort port: Int) -> Bool { listeners.values.contains { $0.port == port } }

    /// The name of the next unnamed connection: "#1", "#2", ….
    func nextUnnamedName() -> String {
        unnamed += 1
        return "#\(unnamed)"
    }

    /// Keeps `connection` under its name and makes it the current one.
    func add(_ connection: ProbeConnection) {
        connections[connection.name] = connection
        current = connection
    }

    func add(_ listener: ProbeListener) {
        listeners[listener.name] = listener
    }

    /// Makes the connection named `name` the current one; false when there is none.
    func use(_ name: String) -> Bool {
        guard let connection = connections[name] else { return false }
        current = connection
        return true
    }

    func connection(named name: String) -> ProbeConnection? { connections[name] }

    func listener(named name: String) -> ProbeListener? { listeners[name] }

    /// The connections in name order.
    var all: [ProbeConnection] { connections.values.sorted { $0.name < $1.name } }

    /// The names of the named (not "#N") connections, sorted, for messages.
    var names: [String] { connections.keys.filter { !$0.hasPrefix("#") }.sorted() }

    /// Closes every connection not closed yet (FIN), then every listener.
    func closeAll(on loop: EventLoop) async {
        try? await closeConnections(on: loop).get()
        for listener in listeners.values { await listener.close() }
    }

    /// Closes every connection not closed yet (FIN); the future completes on `loop` when all have.
    func closeConnections(on loop: EventLoop) -> EventLoopFuture<Void> {
        .andAllComplete(connections.values.filter { !$0.isClosed }.map { $0.close(at: nil) }, on: loop)
    }

    /// True when it holds connections only, no listener.
    var holdsConnectionsOnly: Bool { listeners.isEmpty }
}
