import ProbeHost
import ProbeScript

/// The `input` and `expect stdout|stderr` executors: a subject's standard streams as steps.
extension ScenarioExecution {
    func input(_ input: SubjectInput, _ statement: Statement) async throws {
        guard let subject = subjects[input.name.text] else { throw unknownSubject(input.name, statement) }
        let name = input.name.text
        let bytes: [UInt8]
        switch input.data {
        case .eof:
            subject.closeInput()
            record(statement, "closed the standard input of '\(name)'")
            return
        case .bytes(let template): bytes = render(template)
        case .line(let template): bytes = render(template) + [10]
        }
        guard subject.hasInput else {
            let why = subject.spawnedWithStdin ? "it was closed by 'input \(name) eof'" : "spawn it 'with stdin'"
            throw failure(statement, "'\(name)' has no standard input to write: \(why)")
        }
        let (wait, byDeadline) = limit(settings.timeout)
        let started = clock.now
        var written = 0
        while written < bytes.count {
            let count: Int
            do { count = try subject.writeInput(bytes[written...]) } catch {
                throw failure(statement, "'\(name)' took \(written) of \(bytes.count) bytes: \(error) (\(subject.exitDescription ?? "it is still running"))")
            }
            written += count
            guard count == 0 else { continue }
            if clock.now - started > wait {
                let why = byDeadline ? "by the scenario deadline" : "within \(format(wait))"
                throw failure(statement, "'\(name)' took only \(written) of \(bytes.count) bytes \(why): it is not reading its standard input",
                              waited: clock.now - started)
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        record(statement, "wrote \(ByteEscaper.preview(bytes)) to the standard input of '\(name)'")
    }

    func expectOutput(_ expectation: OutputExpectation, _ statement: Statement) async throws {
        guard let subject = subjects[expectation.name.text] else { throw unknownSubject(expectation.name, statement) }
        let source = "'\(expectation.name.text)' \(expectation.stream.rawValue)"
        var matcher: ExpectationMatcher?
        if let match = expectation.awaitedLine { matcher = ExpectationMatcher(.line(try lineRule(match, statement)), framing: settings.lineFraming) }
        // `eventually`: the lines that did not match, skipped.
        var skipped: SkippedLines?
        if case .eventually = expectation.awaited { skipped = SkippedLines() }
        let tail = expectation.stream == .stdout ? subject.stdout : subject.stderr
        let requested = try expectation.within.map { try resolve($0, "a duration", Quantity.duration) } ?? settings.timeout
        let (wait, byDeadline) = limit(requested)
        let started = clock.now
        // A long line its regex still searches.
        var judged: String?
        while true {
            if let line = judged ?? tail.takeLine() {
                let shown = ByteEscaper.preview(Array(line.utf8))
                guard var lineMatcher = matcher else {
                    throw failure(statement, "expected the end of \(source), but it wrote the line \(shown)", waited: clock.now - started)
                }
                let verdict = lineMatcher.judge(line: Array(line.utf8))
                (matcher, judged) = (lineMatcher, verdict == nil ? line : nil)
                switch verdict {
                case .matched(let captures, _)?:
                    if !captures.isEmpty { setCaptures(captures) }
                    let after = skipped.map { " (after skipping \($0.summary))" } ?? ""
                    record(statement, "\(source): \(shown) after \(format(clock.now - started))\(after)\(Self.describe(captures))")
                    return
                case .failed where skipped != nil:
                    skipped?.add(Array(line.utf8), size: line.utf8.count + 1)
                case .failed(let message)?:
                    throw failure(statement, "on \(source):\n\(message)", waited: clock.now - started)
                case .timedOut?, nil:
                    break
                }
            }
            if judged == nil, tail.isDrained {
                guard matcher != nil else {
                    record(statement, "\(source) ended after \(format(clock.now - started))")
                    return
                }
                // A subject's streams mostly end as it exits: give the exit a moment to be seen.
                if !subject.hasExited { _ = await subject.waitForExit(timeout: .milliseconds(500)) }
                let after = skipped.map { " (after skipping \($0.summary))" } ?? ""
                throw failure(statement, "\(source) ended (\(subject.exitDescription ?? "it closed the stream and still runs")) with no line left to match\(after)", waited: clock.now - started)
            }
            if clock.now - started > wait {
                let why = byDeadline ? "the scenario deadline of \(format(settings.deadline)) passed" : "timed out after \(format(wait))"
                let (dropped, partial) = tail.unreadState
                var message = "\(why) waiting for \(matcher == nil ? "the end" : "a line") of \(source)"
                if judged != nil, let matcher {
                    message += matcher.stillSearching
                } else {
                    message += partial.isEmpty ? "; no line had arrived" : "; it had written \(ByteEscaper.preview(Array(partial.utf8))) without ending the line"
                }
                if dropped > 0 { message += " (\(dropped) lines were dropped: over \(OutputTail.pendingLimit) lines or 1 MiB waited unread)" }
                if let skipped { message += "; skipped \(skipped.summary)" }
                throw failure(statement, message, waited: clock.now - started)
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
