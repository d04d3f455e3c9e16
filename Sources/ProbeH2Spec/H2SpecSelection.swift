/// Which sections and cases h2spec's SPEC arguments select, as h2spec decides it: `generic`
/// selects a spec whole, `http2/6.5` a section and the sections under it, `hpack/2.3.3/1` one
/// case; a section above a selected one is shown (its heading) without its own cases. No
/// argument selects everything.
package struct H2SpecSelection: Sendable {
    /// Each key's say: true selects all below it, false only leads to something selected.
    private var targets: [String: Bool] = [:]

    package init(_ specs: [String]) throws {
        for spec in specs {
            let parts = spec.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard (1...3).contains(parts.count), !parts.contains(where: \.isEmpty) else {
                throw H2SpecError("'\(spec)' is not a spec, a section or a case (generic, http2/6.5, hpack/2.3.3/1)")
            }
            if parts.count == 1 {
                targets[parts[0]] = true
                continue
            }
            if targets[parts[0]] == nil { targets[parts[0]] = false }
            let numbers = parts[1].split(separator: ".")
            for end in 1...numbers.count {
                let key = parts[0] + "/" + numbers.prefix(end).joined(separator: ".")
                if targets[key] != true { targets[key] = false }
            }
            targets[spec] = true
        }
    }

    /// How much of `id` (a spec, a section or a case) runs: all of it, its heading only, or none.
    package enum Mode { case all, heading, none }

    package func mode(_ id: String) -> Mode {
        guard !targets.isEmpty else { return .all }
        let parts = id.split(separator: "/").map(String.init)
        var keys = [parts[0]]
        if parts.count > 1 {
            let numbers = parts[1].split(separator: ".")
            keys += (1...numbers.count).map { parts[0] + "/" + numbers.prefix($0).joined(separator: ".") }
        }
        if parts.count > 2 { keys.append(id) }
        var mode = Mode.none
        for key in keys {
            guard let all = targets[key] else { return .none }
            if all { return .all }
            mode = .heading
        }
        return mode
    }
}
