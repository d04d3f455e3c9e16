import ProbeHost
import ProbeResults
import ProbeScript

/// The `parallel` executor: N concurrent copies of a block, each with its own connections.
extension ScenarioExecution {
    /// Descriptors kept free beside a `parallel` block's: the capture, subjects' pipes, reports.
    static let descriptorReserve = 64

    /// About how many descriptors one copy of `body` holds at once: a connection, listener or
    /// accepted connection one each, a spawned subject four (its pipes and its pidfd), a proxy
    /// three (its listener and a connection's two legs), a nested `parallel` its copies'. A
    /// `repeat` counts once: its turns mostly close what they open.
    static func descriptors(of body: [Statement]) -> Int {
        body.reduce(0) { total, statement in
            switch statement.kind {
            case .connect, .listen, .accept: return total + 1
            case .spawn: return total + 4
            case .proxy: return total + 3
            case .repeatBlock(_, let inner): return total + descriptors(of: inner)
            case .parallel(let count, let inner): return total + (count.literal ?? 1) * descriptors(of: inner)
            default: return total
            }
        }
    }

    fileprivate struct CopyOutcome: @unchecked Sendable {
        var copy: Int
        var failure: StepFailure?
    }

    func parallel(_ count: Argument<Int>, _ body: [Statement], _ statement: Statement) async throws {
        let copies = try resolve(count, "a number of copies", Quantity.integer)
        guard copies > 0 else { throw failure(statement, "parallel needs at least 1 copy") }
        if copyIndex == nil, case .failure(let shortfall) = DescriptorLimit.makeRoom(for: copies * Self.descriptors(of: body) + Self.descriptorReserve) {
            throw StepFailure(.environment, at: statement.location, step: statement.text, message: "parallel \(copies) \(shortfall)")
        }
        let recorder = LatencyRecorder()
        let children = (0..<copies).map { ScenarioExecution(parent: self, copy: $0, latencies: recorder) }
        let started = clock.now
        let outcomes = await withTaskGroup(of: CopyOutcome.self, returning: [CopyOutcome].self) { group in
            for child in children {
                let box = UncheckedBox(child)
                group.addTask { await box.value.runCopy(body, statement) }
            }
            var all: [CopyOutcome] = []
            for await outcome in group { all.append(outcome) }
            return all.sorted { $0.copy < $1.copy }
        }
        let failures = outcomes.filter { $0.failure != nil }
        let summary = ParallelSummary(location: statement.location, copies: copies, passed: copies - failures.count,
                                      latencies: recorder.recorded)
        runRecord.parallelSummaries.append(summary)
        latencies?.add(recorder)
        record(statement, "parallel \(copies) in \(format(clock.now - started)): \(summary.description)")
        if copyIndex == nil { runRecord.notes.append("\(statement.location.fileAndLine) parallel \(copies): \(summary.description)") }
        guard let first = failures.first, var failure = first.failure else { return }
        // The scenario fails at the copy's failing step, and the message names the copy and the tally.
        failure.message = "copy \(first.copy) of parallel \(copies) (\(statement.location.fileAndLine)) failed; \(summary.description)\n" + failure.message
        if let connection = failure.connection { failure.connection = "\(connection) of copy \(first.copy)" }
        throw failure
    }
}

extension ScenarioExecution {
    /// One copy's run, from its task. Every copy holds this frame while it waits, so its
    /// failure is built out of line.
    @inline(never)
    fileprivate func runCopy(_ body: [Statement], _ statement: Statement) async -> CopyOutcome {
        var problem: Error?
        do {
            try await execute(body)
            try await judgeUnreadAtEnd()
        } catch {
            problem = error
        }
        await closeAll()
        await stopSubjects(reportOutput: false)
        return CopyOutcome(copy: copyIndex ?? 0, failure: problem.map { copyFailure($0, statement) })
    }

    @inline(never)
    private func copyFailure(_ error: Error, _ statement: Statement) -> StepFailure {
        error as? StepFailure ?? StepFailure(at: statement.location, step: statement.text, message: "copy \(copyIndex ?? 0): \(error)")
    }
}

/// Hands a non-Sendable value to exactly one child task.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
