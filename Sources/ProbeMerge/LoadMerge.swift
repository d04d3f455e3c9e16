import FoundationEssentials
import Histogram
import ProbeReport
import ProbeResults
import ProbeRunner
import ProbeScript

/// `tcpprobe merge`: the JSON reports of the N parts of one load (`run --part K/N`) made one
/// run's report. Each `parallel` block's copies and counts add up, its latency histograms add
/// exactly (HdrHistogram's own encoding, no averaged percentiles), and the `assert copies` and
/// `assert latency` steps the parts left are judged once, on the whole load.
package enum LoadMerge {
    /// One part's report, read.
    package struct Part {
        package let file: String
        package let part: LoadPart
        package let report: JSONReport.Document
    }

    /// Reads and checks the parts: each a part's report, all of one N, each part once, none
    /// missing, all of the same scenarios. `contents` reads a file; what it throws says why
    /// it could not, naming the file.
    package static func read(_ files: [String], contents: (String) throws -> Data) throws(LoadMergeError) -> [Part] {
        var parts: [Part] = []
        for file in files {
            let data: Data
            do {
                data = try contents(file)
            } catch {
                throw .cannotRead("\(error)")
            }
            let report: JSONReport.Document
            do {
                report = try JSONDecoder().decode(JSONReport.Document.self, from: data)
            } catch let error as DecodingError {
                throw .unreadable(file: file, why: error.plainDescription)
            } catch {
                throw .unreadable(file: file, why: "\(error)")
            }
            guard let text = report.part, let part = LoadPart(text) else { throw .notAPart(file: file) }
            if let first = parts.first, first.part.count != part.count {
                throw .partsDisagree(file: file, parts: part.count, otherFile: first.file, otherParts: first.part.count)
            }
            if let twin = parts.first(where: { $0.part == part }) { throw .partTwice(part: text, files: [twin.file, file]) }
            parts.append(Part(file: file, part: part, report: report))
        }
        guard let first = parts.first else { throw .partsMissing([1], of: 1) }
        let missing = (1...first.part.count).filter { index in !parts.contains { $0.part.index == index } }
        guard missing.isEmpty else { throw .partsMissing(missing, of: first.part.count) }
        for other in parts.dropFirst() {
            let mine = first.report.scenarios.map { $0.digest ?? "" }
            let theirs = other.report.scenarios.map { $0.digest ?? "" }
            guard mine == theirs else {
                let what = mine.count != theirs.count ? "\(mine.count) scenarios against \(theirs.count)" : "a scenario's text differs (its digest)"
                throw .differentScenarios(file: first.file, otherFile: other.file, what: what)
            }
        }
        return parts.sorted { $0.part.index < $1.part.index }
    }

    /// The whole load's report.
    package static func merge(_ parts: [Part]) throws(LoadMergeError) -> RunReport {
        var results: [ScenarioResult] = []
        for index in parts[0].report.scenarios.indices {
            results.append(try scenario(index, of: parts))
        }
        let startedAt = parts.map(\.report.startedAt).min() ?? ""
        let seconds = parts.map(\.report.durationSeconds).max() ?? 0
        let notes = parts.flatMap { part in (part.report.notes ?? []).map { "part \(part.part): \($0)" } }
        return RunReport(results: results, startedAt: startedAt, duration: .milliseconds(Int64((seconds * 1000).rounded())), notes: notes)
    }

    /// One scenario of the load: its parts' blocks added, then its unjudged asserts judged.
    private static func scenario(_ index: Int, of parts: [Part]) throws(LoadMergeError) -> ScenarioResult {
        let scenarios = parts.map { $0.report.scenarios[index] }
        let first = scenarios[0]
        var notes: [String] = []
        // Each part's notes say its share of each block, and what else it noted.
        for (part, scenario) in zip(parts, scenarios) { notes += scenario.notes.map { "part \(part.part): \($0)" } }
        let blocks = try mergedBlocks(scenarios.map { $0.parallel ?? [] }, path: first.path, parts: parts)
        notes += blocks.map { "\($0.location.fileAndLine) parallel \($0.copies), the whole load: \($0.description)" }
        var log: [LogEntry] = []
        var outcome = ScenarioResult.Outcome.passed
        // A part that failed on its own fails the load where it failed.
        if let failing = zip(parts, scenarios).first(where: { $0.1.failure != nil }), let failure = failing.1.failure {
            outcome = .failed(StepFailure(at: location(failure.location, in: first.path), step: failure.step,
                                          reason: ParallelFailure.partFailed(part: failing.0.part.description, message: failure.message,
                                                                             environment: failing.1.outcome == "error")))
        } else {
            for unjudged in first.unjudged ?? [] {
                let at = SourceLocation(file: first.path, line: unjudged.line, column: 1)
                guard let check = ParallelCheck(text: unjudged.step) else {
                    throw .unreadable(file: parts[0].file, why: "line \(unjudged.line): '\(unjudged.step)' is not an assert on a block")
                }
                let block = SourceLocation(file: first.path, line: unjudged.blockLine, column: 1).fileAndLine
                guard let summary = blocks.last(where: { $0.location.line == unjudged.blockLine }) else {
                    outcome = .failed(StepFailure(at: at, step: check.text, reason: ParallelFailure.blockDidNotRun(block: block)))
                    break
                }
                switch check.judge(summary, block: block) {
                case .success(let words):
                    log.append(LogEntry(offset: .zero, location: at, message: "\(check.text): \(words)"))
                case .failure(let reason):
                    outcome = .failed(StepFailure(at: at, step: check.text, reason: reason))
                }
                if case .failed = outcome { break }
            }
        }
        let duration = Duration.milliseconds(Int64(((scenarios.map(\.durationSeconds).max() ?? 0) * 1000).rounded()))
        var result = ScenarioResult(path: first.path, title: first.title, outcome: outcome, duration: duration, log: log, notes: notes)
        result.parallel = blocks
        return result
    }

    /// Each block's parts added: counts summed, histograms added after decoding, the exact
    /// maximum the largest of the parts'.
    private static func mergedBlocks(_ partsBlocks: [[JSONReport.ParallelItem]], path: String, parts: [Part]) throws(LoadMergeError) -> [ParallelSummary] {
        guard let count = partsBlocks.first?.count, partsBlocks.allSatisfy({ $0.count == count }) else {
            throw .differentScenarios(file: parts[0].file, otherFile: parts[1].file, what: "their parallel blocks ran a different number of times")
        }
        var blocks: [ParallelSummary] = []
        for block in 0..<count {
            let items = partsBlocks.map { $0[block] }
            var latencies = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
            for (part, item) in zip(parts, items) {
                guard let encoded = item.latencyHistogram else { throw .notAPart(file: part.file) }
                do {
                    latencies.add(try HdrHistogramEncoding.decode(encoded, exactMax: item.maxMicroseconds))
                } catch {
                    throw .unreadable(file: part.file, why: "line \(item.line): its latency histogram: \(error)")
                }
            }
            let copies = items.map(\.copies).reduce(0, +)
            if let whole = items[0].wholeBlock, whole != copies {
                throw .differentScenarios(file: parts[0].file, otherFile: parts[parts.count - 1].file,
                                          what: "line \(items[0].line): the parts ran \(copies) copies of \(whole)")
            }
            blocks.append(ParallelSummary(location: SourceLocation(file: path, line: items[0].line, column: 1), copies: copies,
                                          passed: items.map(\.passed).reduce(0, +), latencies: latencies))
        }
        return blocks
    }

    /// `file:line` as a report writes it.
    private static func location(_ text: String, in path: String) -> SourceLocation {
        let line = text.split(separator: ":").last.flatMap { Int($0) } ?? 1
        return SourceLocation(file: path, line: line, column: 1)
    }
}
