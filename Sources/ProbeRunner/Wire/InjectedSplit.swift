import ProbeCapture
import ProbeScript

/// A chunked or split send, to check on the wire once the run ends.
struct InjectedSplit {
    var statement: Statement
    var connection: ProbeConnection
    /// Stream offsets (in the probe's direction) where a write ended and the next began.
    var cuts: [Int]

    /// Whether each cut started a segment of `trace` (the probe's direction), and how far apart
    /// in time the pieces left: a fault is verified only where the wire shows it.
    func verdict(on trace: DirectionTrace) -> String {
        Self.verdict(cuts: cuts, on: trace)
    }

    /// Over TLS: whether each cut started a record, and each of those records a segment.
    func verdict(on application: TLSApplicationTrace, tcp: DirectionTrace) -> String {
        let records = Self.verdict(cuts: cuts, on: application.trace, unit: .record)
        let starts = Dictionary(application.recordStarts.map { ($0.plaintext, $0.tcp) }, uniquingKeysWith: { first, _ in first })
        let tcpCuts = cuts.compactMap { starts[$0] }
        guard tcpCuts.count == cuts.count else { return records }
        return records + "; those records as TCP segments: " + Self.verdict(cuts: tcpCuts, on: tcp)
    }

    static func verdict(cuts: [Int], on trace: DirectionTrace, unit: WireUnit = .segment) -> String {
        let writes = cuts.count + 1
        var gaps: [Double] = []
        var merged: [Int] = []
        for cut in cuts {
            // The segment that starts at the cut, and the one that carried the byte before it.
            let carriers = trace.carriers(of: max(0, cut - 1)..<(cut + 1))
            guard let starting = carriers.last, starting.range.lowerBound == cut, let before = carriers.first, before.range.upperBound == cut else {
                merged.append(cut)
                continue
            }
            gaps.append(starting.segment.timestamp - before.segment.timestamp)
        }
        guard merged.isEmpty else {
            let offsets = merged.prefix(10).map(String.init).joined(separator: ", ")
            let coalesced = unit == .segment ? "the kernel coalesced writes" : "the TLS layer coalesced writes"
            return "NOT verified: \(merged.count) of the \(writes - 1) boundaries between writes did not start a \(unit.rawValue) "
                + "(at stream offsets \(offsets)): \(coalesced)"
        }
        let least = DurationFormat.short(.nanoseconds(Int64((gaps.min() ?? 0) * 1e9)))
        let spacing = writes == 2 ? "\(least) apart" : "at least \(least) apart"
        return "all \(writes) writes left as separate \(unit.plural), \(spacing) (verified on the wire)"
    }
}
