import ProbeScript

/// h2spec's console layout: each spec and section heading indented by its level, each case
/// `✔ 1: …`, `× 1: …` (with the requirement and why under it) or a skipped `1: …`; then the
/// failures again, the time, and the summary line `146 tests, 145 passed, 0 skipped, 1 failed`.
package struct H2SpecConsole {
    package let catalog: H2SpecCatalog
    package let selection: H2SpecSelection
    package let strict: Bool

    /// The catalog's cases by section id, in h2spec's order.
    private let casesBySection: [String: [H2SpecCatalog.Case]]

    package init(catalog: H2SpecCatalog, selection: H2SpecSelection, strict: Bool) {
        self.catalog = catalog
        self.selection = selection
        self.strict = strict
        casesBySection = Dictionary(grouping: catalog.cases, by: \.section)
    }

    /// The report of a run; `verbose` adds each case's step log.
    package func report(_ results: [String: H2SpecResult], elapsed: Duration, verbose: Bool) -> String {
        var out = tree(results, verbose: verbose, failedOnly: false)
        let all = Array(results.values)
        let failed = all.filter { $0.verdict == .failed }.count
        let skipped = all.filter { $0.verdict == .skipped }.count
        guard !all.isEmpty else { return out + "No matched tests found.\n" }
        if failed > 0 { out += "Failures: \n\n" + tree(results, verbose: false, failedOnly: true) }
        out += "Finished in \(DurationFormat.seconds(elapsed, places: 4)) seconds\n"
        out += "\(all.count) tests, \(all.count - failed - skipped) passed, \(skipped) skipped, \(failed) failed\n"
        return out
    }

    /// `--dryrun`: the headings and the titles of the cases that would run.
    package func dryRun() -> String {
        var out = ""
        for section in catalog.sections where selection.mode(section.id) != .none {
            out += indent(section.level) + section.heading + "\n"
            let cases = cases(of: section)
            for testCase in cases { out += indent(section.level + 1) + "\(testCase.number): \(testCase.description)\n" }
            if !cases.isEmpty { out += "\n" }
        }
        return out
    }

    private func cases(of section: H2SpecCatalog.Section) -> [H2SpecCatalog.Case] {
        (casesBySection[section.id] ?? []).filter { (strict || !$0.strict) && selection.mode($0.id) == .all }
    }

    private func tree(_ results: [String: H2SpecResult], verbose: Bool, failedOnly: Bool) -> String {
        var out = ""
        for section in catalog.sections where selection.mode(section.id) != .none {
            let shown = cases(of: section).compactMap { results[$0.id] }.filter { !failedOnly || $0.verdict == .failed }
            if failedOnly && !hasFailure(under: section, results) { continue }
            out += indent(section.level) + section.heading + "\n"
            for result in shown { out += lines(result, level: section.level + 1, verbose: verbose) }
            if !shown.isEmpty { out += "\n" }
        }
        return out
    }

    private func hasFailure(under section: H2SpecCatalog.Section, _ results: [String: H2SpecResult]) -> Bool {
        results.values.contains { $0.verdict == .failed && ($0.testCase.section == section.id || $0.testCase.section.hasPrefix(section.id + (section.number == nil ? "/" : "."))) }
    }

    private func lines(_ result: H2SpecResult, level: Int, verbose: Bool) -> String {
        let head = "\(result.testCase.number): \(result.testCase.description)"
        var out: String
        switch result.verdict {
        case .passed: out = indent(level) + "✔ " + head + "\n"
        case .skipped: out = indent(level) + head + "\n" + result.why.map { indent(level + 1) + "   Skipped: \($0)\n" }.joined()
        case .failed:
            out = indent(level) + "× " + head + "\n" + indent(level + 1) + "-> " + result.testCase.requirement + "\n"
            out += result.why.flatMap { $0.split(separator: "\n") }.map { indent(level + 1) + "   " + $0 + "\n" }.joined()
        }
        if verbose { out += result.log.map { indent(level + 1) + "   " + $0 + "\n" }.joined() }
        return out
    }

    private func indent(_ level: Int) -> String { String(repeating: "  ", count: level) }
}
