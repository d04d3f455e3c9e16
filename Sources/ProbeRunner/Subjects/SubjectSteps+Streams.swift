import ProbeHost
import ProbeResults
import ProbeScript

/// The `input` and `expect stdout|stderr` steps: a subject's standard streams as steps.
extension SubjectSteps {
    func input(_ input: SubjectInput, _ statement: Statement) async throws {
        guard let subject = subjects[input.name.text] else { throw unknownSubject(input.name, statement) }
        let name = input.name.text
        let bytes: [UInt8]
        switch input.data {
        case .eof:
            subject.closeInput()
            context.record(statement, "closed the standard input of '\(name)'")
            return
        case .bytes(let template): bytes = context.render(template)
        case .line(let template): bytes = context.render(template) + [10]
        }
        guard subject.hasInput else {
            throw StepFailure(statement, SubjectFailure.noInput(subject: name, closedByInputEOF: subject.spawnedWithStdin))
        }
        let (wait, byDeadline) = context.limit(context.settings.timeout)
        let started = context.clock.now
        var written = 0
        while written < bytes.count {
            let count: Int
            do { count = try subject.writeInput(bytes[written...]) } catch {
                throw StepFailure(statement, SubjectFailure.inputFailed(subject: name, written: written, total: bytes.count, error: "\(error)",
                                                                        state: subject.exitDescription ?? "it is still running"))
            }
            written += count
            guard count == 0 else { continue }
            if context.clock.now - started > wait {
                throw StepFailure(statement, SubjectFailure.notReadingInput(subject: name, written: written, total: bytes.count, byDeadline: byDeadline, within: wait),
                                  waited: context.clock.now - started)
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        context.record(statement, "wrote \(ByteEscaper.preview(bytes)) to the standard input of '\(name)'")
    }

    func expectOutput(_ expectation: OutputExpectation, _ statement: Statement) async throws {
        guard let subject = subjects[expectation.name.text] else { throw unknownSubject(expectation.name, statement) }
        let source = "'\(expectation.name.text)' \(expectation.stream.rawValue)"
        var matcher: ExpectationMatcher?
        if let match = expectation.awaitedLine { matcher = ExpectationMatcher(.line(try context.lineRule(match, statement)), framing: context.settings.lineFraming) }
        // `eventually`: the lines that did not match, skipped.
        var skipped: SkippedLines?
        if case .eventually = expectation.awaited { skipped = SkippedLines() }
        let tail = expectation.stream == .stdout ? subject.stdout : subject.stderr
        let requested = try expectation.within.map { try context.resolve($0, "a duration", Quantity.duration) } ?? context.settings.timeout
        let (wait, byDeadline) = context.limit(requested)
        let started = context.clock.now
        // A long line its regex still searches.
        var judged: String?
        while true {
            if let line = judged ?? tail.takeLine() {
                let shown = ByteEscaper.preview(Array(line.utf8))
                guard var lineMatcher = matcher else {
                    throw StepFailure(statement, SubjectFailure.outputNotEnded(source: source, line: shown), waited: context.clock.now - started)
                }
                let verdict = lineMatcher.judge(line: Array(line.utf8))
                (matcher, judged) = (lineMatcher, verdict == nil ? line : nil)
                switch verdict {
                case .matched(let captures, _)?:
                    if !captures.isEmpty { context.setCaptures(captures) }
                    let after = skipped.map { " (after skipping \($0.summary))" } ?? ""
                    context.record(statement, "\(source): \(shown) after \(DurationFormat.short(context.clock.now - started))\(after)\(ByteDiff.assignments(captures))")
                    return
                case .failed where skipped != nil:
                    skipped?.add(Array(line.utf8), size: line.utf8.count + 1)
                case .failed(let message)?:
                    throw StepFailure(statement, SubjectFailure.outputMismatch(source: source, verdict: message), waited: context.clock.now - started)
                case .timedOut?, nil:
                    break
                }
            }
            if judged == nil, tail.isDrained {
                guard matcher != nil else {
                    context.record(statement, "\(source) ended after \(DurationFormat.short(context.clock.now - started))")
                    return
                }
                // A subject's streams mostly end as it exits: give the exit a moment to be seen.
                if !subject.hasExited { _ = await subject.waitForExit(timeout: .milliseconds(500)) }
                throw StepFailure(statement, SubjectFailure.outputEnded(source: source, state: subject.exitDescription ?? "it closed the stream and still runs",
                                                                        skipped: skipped?.summary),
                                  waited: context.clock.now - started)
            }
            if context.clock.now - started > wait {
                let (dropped, partial) = tail.unreadState
                let detail: String
                if judged != nil, let matcher {
                    detail = matcher.stillSearching
                } else {
                    let nothing = tail.tail(lines: 0).total == 0
                    // Nothing at all: most often output held in a block buffer, which the hint names.
                    detail = !partial.isEmpty ? "; it had written \(ByteEscaper.preview(Array(partial.utf8))) without ending the line"
                        : nothing ? Self.printed(tail, expectation.stream) : "; no line had arrived"
                }
                throw StepFailure(statement, SubjectFailure.outputTimedOut(source: source, awaited: matcher == nil ? "the end" : "a line", byDeadline: byDeadline,
                                                                           wait: byDeadline ? context.settings.deadline : wait, detail: detail,
                                                                           droppedLines: dropped, skipped: skipped?.summary),
                                  waited: context.clock.now - started)
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
