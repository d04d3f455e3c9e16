import ArgumentParser

/// `--heartbeat D`: how often the server pings each client, and how long it waits for the
/// client's pong (`250ms`, `2s`).
struct HeartbeatInterval: ExpressibleByArgument, Sendable {
    let duration: Duration

    init?(argument: String) {
        let units: [(suffix: String, make: (Int) -> Duration)] = [("ms", { .milliseconds($0) }), ("s", { .seconds($0) })]
        guard let unit = units.first(where: { argument.hasSuffix($0.suffix) }),
              let value = Int(argument.dropLast(unit.suffix.count)), value > 0 else { return nil }
        duration = unit.make(value)
    }
}
