import ProbeScript

/// Scenarios that test one server given to the run rather than a subject of their own
/// (`spawn … unless given url` with `--var url=…`) run one at a time, as Autobahn|Testsuite runs
/// its cases: two 4 MiB echoes at once against a one-process server would fail a correct server
/// that is only busy. Scenarios with subjects of their own still run `--jobs` at a time.
actor SharedSubjects {
    private var busy: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// What `scenario` shares with others run with `given`: the given variables its `spawn …
    /// unless given` steps name, with their values (empty when it starts its own subjects).
    static func key(of scenario: Scenario, given: [String: String]) -> String {
        let names = scenario.allStatements.compactMap { statement -> String? in
            guard case .spawn(let step) = statement.kind, let name = step.unlessGiven?.text, let value = given[name] else { return nil }
            return "\(name)=\(value)"
        }
        return Set(names).sorted().joined(separator: " ")
    }

    /// Runs `body` once no other scenario with `key` runs (at once for an empty key).
    func run<Value: Sendable>(_ key: String, _ body: @Sendable () async -> Value) async -> Value {
        guard !key.isEmpty else { return await body() }
        if busy.contains(key) {
            await withCheckedContinuation { waiting[key, default: []].append($0) }
        } else {
            busy.insert(key)
        }
        let value = await body()
        if var queue = waiting[key], !queue.isEmpty {
            // Handed straight to the next in line: the key stays busy.
            let next = queue.removeFirst()
            waiting[key] = queue
            next.resume()
        } else {
            busy.remove(key)
        }
        return value
    }
}
