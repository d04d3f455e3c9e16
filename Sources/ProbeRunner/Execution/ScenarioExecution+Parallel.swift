import NIOCore
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
            case .repeatBlock(_, let inner, _), .nonStrict(let inner): return total + descriptors(of: inner)
            case .parallel(let count, let inner): return total + (count.literal ?? 1) * descriptors(of: inner)
            default: return total
            }
        }
    }

    func parallel(_ count: Argument<Int>, _ body: [Statement], _ statement: Statement) async throws {
        let copies = try resolve(count, "a number of copies", Quantity.integer)
        guard copies > 0 else { throw StepFailure(statement, ParallelFailure.noCopies) }
        if copyIndex == nil, case .failure(let shortfall) = DescriptorLimit.makeRoom(for: copies * Self.descriptors(of: body) + Self.descriptorReserve) {
            throw StepFailure(statement, ParallelFailure.tooFewDescriptors(copies: copies, shortfall: "\(shortfall)"))
        }
        let recorder = LatencyRecorder()
        let children = (0..<copies).map { ScenarioExecution(parent: self, copy: $0, latencies: recorder) }
        let started = clock.now
        var tally: ParallelTally?
        let failures: [(copy: Int, failure: StepFailure)] = await withCheckedContinuation { continuation in
            let block = ParallelTally(statement, copies: copies) { continuation.resume(returning: $0) }
            tally = block
            for child in children { StepMachine(child, running: body, then: .copy(of: block)).advance() }
        }
        let summary = ParallelSummary(location: statement.location, copies: copies, passed: copies - failures.count,
                                      latencies: recorder.recorded)
        runRecord.parallelSummaries.append(summary)
        latencies?.add(recorder)
        record(statement, "parallel \(copies) in \(format(clock.now - started)): \(summary.description)")
        if copyIndex == nil {
            runRecord.notes.append("\(statement.location.fileAndLine) parallel \(copies): \(summary.description)")
            if let unread = tally?.unreadNote {
                runRecord.notes.append("\(statement.location.fileAndLine) parallel \(copies): \(unread) (no expect read them; `set unread fail` makes this a failure)")
            }
        }
        guard let first = failures.first else { return }
        if run.parallelAssertions.judgedOnCopies.contains(statement.location) {
            // An `assert copies` after the block judges its copies; their first failures are noted.
            for (copy, failure) in failures.prefix(3) {
                runRecord.notes.append("\(statement.location.fileAndLine) parallel \(copies): copy \(copy) failed: \(failure.location.fileAndLine) \(failure.message)")
            }
            return
        }
        var failure = first.failure
        // The scenario fails at the copy's failing step, and the message names the copy and the tally.
        failure.message = "copy \(first.copy) of parallel \(copies) (\(statement.location.fileAndLine)) failed; \(summary.description)\n" + failure.message
        if let connection = failure.connection { failure.connection = "\(connection) of copy \(first.copy)" }
        throw failure
    }
}

extension ScenarioExecution {
    /// `assert copies …` and `assert latency …`: judges the `parallel` block before the step.
    func judge(_ assertion: ParallelAssertion, _ statement: Statement) throws {
        guard let blockLocation = run.parallelAssertions.blockOfAssert[statement.location] else {
            preconditionFailure("the loader pairs every assert with a block: \(statement.text)")
        }
        let block = blockLocation.fileAndLine
        guard let summary = runRecord.parallelSummaries.last(where: { $0.location == blockLocation }) else {
            throw StepFailure(statement, ParallelFailure.blockDidNotRun(block: block))
        }
        switch assertion {
        case .copies(let outcome, let op, let amount):
            let counted = summary.count(outcome)
            let holds: Bool
            let asked: String
            switch amount {
            case .share(let share):
                let percent = try resolve(share, "a share of the copies", Quantity.percent)
                holds = summary.holds(outcome, op, share: percent)
                asked = "\(op.rawValue) \(share.text)"
            case .count(let count):
                let number = try resolve(count, "a number of copies", Quantity.integer)
                holds = op.holds(counted, number)
                asked = "\(op.rawValue) \(number)"
            }
            guard holds else {
                throw StepFailure(statement, ParallelFailure.copiesNotMet(outcome: outcome.rawValue, asked: asked, counted: counted, copies: summary.copies, block: block))
            }
            record(statement, "copies \(outcome.rawValue): \(counted) of \(summary.copies) (\(ParallelFailure.share(counted, of: summary.copies))), \(asked)")
        case .latency(let statistic, let op, let limit):
            let bound = try resolve(limit, "a duration", Quantity.duration)
            guard let measured = summary.latency(atPercentile: statistic.percentile) else {
                throw StepFailure(statement, ParallelFailure.noLatencies(block: block))
            }
            let asked = "\(op.rawValue) \(limit.text)"
            guard op.holds(measured, bound) else {
                throw StepFailure(statement, ParallelFailure.latencyNotMet(statistic: statistic.rawValue, asked: asked, measured: measured, expects: summary.expects, block: block))
            }
            record(statement, "latency \(statistic.rawValue): \(format(measured)) over \(summary.expects) expects, \(asked)")
        }
    }

    /// A copy's end: its unread bytes judged when it passed (a copy judges them only under
    /// `set unread fail`), its connections closed and its subjects stopped. A copy that holds
    /// connections only, and passed, ends on the loop with no task.
    func endCopy(after problem: Error?, of tally: ParallelTally) -> EventLoopFuture<StepFailure?> {
        let loop = loop
        let parallel = tally.statement
        if problem == nil, settings.unread == .note { noteUnread(in: tally) }
        if problem == nil, settings.unread != .fail, madeSubjects?.isEmpty ?? true, table.holdsConnectionsOnly, madeProxies?.isEmpty ?? true {
            return table.closeConnections(on: loop).map { nil }
        }
        let promise = loop.makePromise(of: StepFailure?.self)
        _ = onTask {
            var problem = problem
            if problem == nil {
                do { try await self.judgeUnreadAtEnd() } catch { problem = error }
            }
            await self.closeAll()
            await self.madeSubjects?.stopSubjects(reportOutput: false)
            let copy = self.copyIndex ?? 0
            promise.succeed(problem.map { $0 as? StepFailure ?? StepFailure(parallel, ParallelFailure.copyFailed(copy: copy, error: "\($0)")) })
        }
        return promise.futureResult
    }

    /// Under `set unread note` a copy keeps no note of its own: the bytes its open connections
    /// hold unread go to the block's tally, which names them once for all copies. On the run's
    /// loop, where the copies' connections read.
    private func noteUnread(in tally: ParallelTally) {
        for connection in table.all where !connection.isClosed && connection.eventLoop.inEventLoop {
            let count = connection.handler.unconsumedBytes
            if count > 0 { tally.noteUnread(count, head: connection.handler.unreadHead(80)) }
        }
    }
}
