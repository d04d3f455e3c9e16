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
            case .repeatBlock(_, let inner, _), .nonStrict(let inner, _): return total + descriptors(of: inner)
            case .parallel(let count, let inner): return total + (count.literal ?? 1) * descriptors(of: inner)
            default: return total
            }
        }
    }

    func parallel(_ count: Argument<Int>, _ body: [Statement], _ statement: Statement) async throws {
        let wholeBlock = try resolve(count, "a number of copies", Quantity.integer)
        guard wholeBlock > 0 else { throw StepFailure(statement, ParallelFailure.noCopies) }
        // Under `--part`, the copies that fall to this part, numbered as in the whole load (a
        // copy runs all of a block inside it: it is in one part already).
        let part = copyIndex == nil ? options.part : nil
        let share = part.map { $0.copies(of: wholeBlock) } ?? 0..<wholeBlock
        let copies = share.count
        let partShare = part.map { ParallelSummary.Share(part: $0.description, firstCopy: share.lowerBound, wholeBlock: wholeBlock) }
        if copyIndex == nil, case .failure(let shortfall) = DescriptorLimit.makeRoom(for: copies * Self.descriptors(of: body) + Self.descriptorReserve) {
            throw StepFailure(statement, ParallelFailure.tooFewDescriptors(copies: copies, shortfall: "\(shortfall)"))
        }
        let recorder = LatencyRecorder()
        guard copies > 0 else {
            // More parts than copies: this part runs none of them, and says so in its report.
            var summary = ParallelSummary(location: statement.location, copies: 0, passed: 0, latencies: recorder.recorded)
            summary.share = partShare
            runRecord.parallelSummaries.append(summary)
            record(statement, "parallel \(wholeBlock): \(summary.description)")
            return
        }
        let children = share.map { ScenarioExecution(parent: self, copy: $0, latencies: recorder) }
        let started = clock.now
        var tally: ParallelTally?
        let failures: [(copy: Int, failure: StepFailure)] = await withCheckedContinuation { continuation in
            let block = ParallelTally(statement, copies: copies) { continuation.resume(returning: $0) }
            tally = block
            for child in children { StepMachine(child, running: body, then: .copy(of: block)).advance() }
        }
        var summary = ParallelSummary(location: statement.location, copies: copies, passed: copies - failures.count,
                                      latencies: recorder.recorded)
        summary.share = partShare
        runRecord.parallelSummaries.append(summary)
        latencies?.add(recorder)
        record(statement, "parallel \(wholeBlock) in \(format(clock.now - started)): \(summary.description)")
        if copyIndex == nil {
            runRecord.notes.append("\(statement.location.fileAndLine) parallel \(wholeBlock): \(summary.description)")
            if let unread = tally?.unreadNote {
                runRecord.notes.append("\(statement.location.fileAndLine) parallel \(wholeBlock): \(unread) (no expect read them; `set unread fail` makes this a failure)")
            }
        }
        guard let first = failures.first else { return }
        if run.parallelAssertions.judgedOnCopies.contains(statement.location) {
            // An `assert copies` after the block judges its copies; their first failures are noted.
            for (copy, failure) in failures.prefix(3) {
                runRecord.notes.append("\(statement.location.fileAndLine) parallel \(wholeBlock): copy \(copy) failed: \(failure.location.fileAndLine) \(failure.message)")
            }
            return
        }
        var failure = first.failure
        // The scenario fails at the copy's failing step, and the message names the copy and the tally.
        failure.message = "copy \(first.copy) of parallel \(wholeBlock) (\(statement.location.fileAndLine)) failed; \(summary.description)\n" + failure.message
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
        let check = try resolve(assertion)
        if let part = options.part {
            runRecord.unjudged.append(UnjudgedAssertion(location: statement.location, step: check.text, block: blockLocation))
            record(statement, "\(check.text): left for tcpprobe merge (part \(part)), which judges the whole load")
            return
        }
        let block = blockLocation.fileAndLine
        guard let summary = runRecord.parallelSummaries.last(where: { $0.location == blockLocation }) else {
            throw StepFailure(statement, ParallelFailure.blockDidNotRun(block: block))
        }
        switch check.judge(summary, block: block) {
        case .success(let words): record(statement, words)
        case .failure(let reason): throw StepFailure(statement, reason)
        }
    }

    /// The assert with its `{variables}` resolved.
    private func resolve(_ assertion: ParallelAssertion) throws -> ParallelCheck {
        switch assertion {
        case .copies(let outcome, let op, let amount):
            return .copies(outcome, op, try resolve(amount, "a share of the copies or a number of them", ParallelAssertion.CopyAmount.parse))
        case .latency(let statistic, let op, let limit):
            return .latency(statistic, op, try resolve(limit, "a duration", Quantity.duration))
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

    /// Under `set unread note` a copy keeps no note of its own: the bytes, messages and frames
    /// its open connections hold unread go to the block's tally, which names them once for all
    /// copies. On the run's loop, where the copies' connections read.
    private func noteUnread(in tally: ParallelTally) {
        for connection in table.all where !connection.isClosed && connection.eventLoop.inEventLoop {
            let handler = connection.handler
            let decoded = Self.decodedUnread(webSocket: connection.webSocket, http2: handler.layer, showing: 1)
            if let first = decoded.shown.first { tally.noteUnread(decoded.count, of: decoded.noun, first: .unit(first)) }
            if handler.unconsumedBytes > 0 { tally.noteUnread(handler.unconsumedBytes, of: "byte", first: .bytes(handler.unreadHead(80))) }
        }
    }
}
