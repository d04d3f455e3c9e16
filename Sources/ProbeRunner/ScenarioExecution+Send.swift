import Foundation
import NIOCore
import ProbeScript

/// The `send` executor, with its fault modifiers: chunks, split offsets, pacing and a bandwidth limit.
extension ScenarioExecution {
    func send(_ step: SendStep, _ statement: Statement) async throws {
        let connection = try target(statement)
        if connection.outputClosed {
            throw failure(statement, "\(connection.label) has shut down writing; nothing more can be sent", connection)
        }
        let bytes = try await data(step.data, statement)
        let pieces = try plan(bytes, step, statement)
        let interval = try step.interval.map { try resolve($0, "a duration", Quantity.duration) }
        let rate = try step.rate.map { try resolve($0, "a rate", Quantity.rate) }
        let sendStart = clock.now
        let streamStart = connection.bytesSent
        var sent = 0
        var writes: [String] = []
        for (index, piece) in pieces.enumerated() {
            if let rate {
                // Token bucket: the bytes already sent must have been "earned" at `rate` bytes/s.
                let due = sendStart + .nanoseconds(Int64(Double(sent) / Double(rate) * 1e9))
                if due > clock.now { try await sleep(for: due - clock.now, statement) }
            }
            let (wait, byDeadline) = limit(timeout)
            let written: Bool
            do {
                written = try await connection.send(piece, timeout: wait.timeAmount)
            } catch {
                throw await withRecentBytes(failure(statement, "send failed after \(sent) of \(bytes.count) bytes: \(error)", connection), connection)
            }
            guard written else {
                let why = byDeadline ? "the scenario deadline of \(format(deadline)) passed" : "a write blocked for \(format(wait))"
                throw await withRecentBytes(failure(statement, "\(why): the peer is not reading (\(sent) of \(bytes.count) bytes written)", connection, waited: wait), connection)
            }
            sent += piece.count
            if pieces.count > 1 { writes.append("\(piece.count)B@\(format(clock.now - sendStart))") }
            if let interval, index < pieces.count - 1 {
                // Pace against the planned times, so the sleeps' own overhead does not accumulate.
                let due = sendStart + interval * (index + 1)
                if due > clock.now { try await sleep(for: due - clock.now, statement) }
            }
        }
        if pieces.count > 1, capture != nil {
            let cuts = pieces.dropLast().reduce(into: [Int]()) { cuts, piece in cuts.append((cuts.last ?? streamStart) + piece.count) }
            injectedSplits.append(InjectedSplit(statement: statement, connection: connection, cuts: cuts))
        }
        var message = "\(connection.label): sent \(bytes.count) bytes " + ByteDiff.preview(bytes, limit: 80)
        if !writes.isEmpty {
            let shown = writes.count > 24 ? writes.prefix(12) + ["…"] + writes.suffix(4) : writes[...]
            message += " in \(pieces.count) writes: " + shown.joined(separator: " ")
        }
        if case .random = step.data { message += " (seed \(seed))" }
        record(statement, message)
    }

    /// The bytes a send form stands for.
    private func data(_ data: SendStep.Data, _ statement: Statement) async throws -> [UInt8] {
        switch data {
        case .bytes(let template):
            return template.render(lookup)
        case .line(let template):
            return template.render(lookup) + terminator.bytes
        case .file(let template):
            let path = ScenarioLoader.resolve(template.renderString(lookup), from: statement.location.file)
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw StepFailure(.environment, at: statement.location, step: statement.text, message: "cannot read '\(path)'")
            }
            return Array(contents)
        case .random(let size):
            let count = try resolve(size, "a size", Quantity.size)
            if !notes.contains(where: { $0.hasPrefix("random seed") }) { notes.append("random seed \(seed) (rerun with --seed \(seed))") }
            return random.bytes(count)
        }
    }

    /// The first `split sweep` of a run is measured (discovery) or split at the run's offset;
    /// any later one is sent whole.
    private func sweepCuts(_ length: Int, _ statement: Statement) -> [Int] {
        guard sweptLength == nil else {
            record(statement, "only the first split sweep of a scenario is swept; this one is sent whole")
            return []
        }
        sweptLength = length
        guard case .offset(let offset) = sweepMode, offset < length else { return [] }
        record(statement, "split sweep: this run splits the \(length)-byte message at offset \(offset)")
        return [offset]
    }

    /// The writes a send is made of: one, or the pieces its modifiers ask for.
    private func plan(_ bytes: [UInt8], _ step: SendStep, _ statement: Statement) throws -> [[UInt8]] {
        var cuts: [Int] = []
        if let chunk = step.chunkSize {
            let size = try resolve(chunk, "a chunk size", Quantity.size)
            guard size > 0 else { throw failure(statement, "a chunk size must be at least 1") }
            cuts = Array(stride(from: size, to: bytes.count, by: size))
        } else if !step.splitOffsets.isEmpty {
            cuts = try step.splitOffsets.map { try resolve($0, "an offset", Quantity.integer) }
            guard cuts == cuts.sorted(), Set(cuts).count == cuts.count else {
                throw failure(statement, "split offsets must increase: \(cuts.map(String.init).joined(separator: ","))")
            }
            if let last = cuts.last, last >= bytes.count {
                throw failure(statement, "split offset \(last) is not inside the \(bytes.count) bytes being sent (offsets run from 1 to \(bytes.count - 1))")
            }
        } else if step.splitSweep {
            cuts = sweepCuts(bytes.count, statement)
        } else if let rate = step.rate {
            // Without explicit chunks, a paced send writes about twenty pieces a second.
            let perSecond = try resolve(rate, "a rate", Quantity.rate)
            let size = max(1, min(64 * 1024, perSecond / 20))
            cuts = Array(stride(from: size, to: bytes.count, by: size))
        }
        var pieces: [[UInt8]] = []
        var from = 0
        for cut in cuts + [bytes.count] where cut > from {
            pieces.append(Array(bytes[from..<cut]))
            from = cut
        }
        return pieces.isEmpty ? [bytes] : pieces
    }
}
