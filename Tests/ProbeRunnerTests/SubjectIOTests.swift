import Foundation
import ProbeRunner
import Testing

/// A subject's standard streams as steps: `input NAME ...` writes its stdin (spawned `with
/// stdin`), `expect stdout|stderr NAME line ...` takes the lines it writes, in order.
@Suite struct SubjectIOTests {
    @Test func whatIsWrittenToItsInputComesBackOnItsOutput() async throws {
        let result = try await ScenarioHarness.run("""
            spawn echoer "cat" with stdin
            input echoer line "hello"
            input echoer "no newline yet, "
            input echoer line "then one"
            expect stdout echoer line "hello"
            expect stdout echoer line /^no newline yet, (?<rest>.*)$/
            input echoer line "{rest}!"
            expect stdout echoer line contains "one!"
            input echoer eof
            expect exit echoer code 0
            """)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains(#"'echoer' stdout: "no newline yet, then one""#) }, "\(result.log.map(\.message))")
    }

    @Test func linesAfterTheReadyLineAreLeftForExpects() async throws {
        try await ScenarioHarness.run("""
            spawn talker "sh -c 'echo starting; echo ready; echo after; echo oops >&2; sleep 5'" ready when stdout /ready/
            expect stdout talker line "after"
            expect stderr talker line "oops"
            """).expectPassed()
    }

    @Test func aWrongLineIsShownBesideTheExpectedOne() async throws {
        let result = try await ScenarioHarness.run("""
            spawn talker "sh -c 'echo one; echo three; sleep 5'"
            expect stdout talker line "one"
            expect stdout talker line "two"
            """)
        result.expectFailure(line: 3, containing: "on 'talker' stdout:\nexpected line: \"two\"\nreceived line: \"three\"")
    }

    @Test func anEndedStreamAndASilentOneFailWithTheirReasons() async throws {
        try await ScenarioHarness.run("""
            spawn talker "sh -c 'echo one'"
            expect stdout talker line "one"
            expect stdout talker line any
            """).expectFailure(line: 3, containing: "'talker' stdout ended (exit code 0) with no line left to match")
        try await ScenarioHarness.run("""
            spawn talker "sh -c 'printf half; sleep 5'"
            expect stdout talker line any within 200ms
            """).expectFailure(line: 2, containing: "timed out after 200ms waiting for a line of 'talker' stdout; it had written \"half\" without ending the line")
        try await ScenarioHarness.run("""
            spawn talker "sh -c 'printf last'"
            expect stdout talker line "last"
            expect stdout talker eof
            """).expectPassed()
        try await ScenarioHarness.run("""
            spawn talker "sh -c 'echo one; echo extra'"
            expect stdout talker line "one"
            expect stdout talker eof
            """).expectFailure(line: 3, containing: "expected the end of 'talker' stdout, but it wrote the line \"extra\"")
        try await ScenarioHarness.run("""
            spawn talker "sleep 5"
            expect stdout talker eof within 100ms
            """).expectFailure(line: 2, containing: "timed out after 100ms waiting for the end of 'talker' stdout; it printed nothing on stdout (a program whose output is a pipe often holds it in a block buffer: run it under `stdbuf -oL`")
        // Python holds a print to a pipe in its block buffer (unless PYTHONUNBUFFERED is set, as
        // it may be around the tests): the line never comes, and the hint says why.
        try await ScenarioHarness.run("""
            spawn talker "python3 -c 'import time; print(1); time.sleep(5)'" env PYTHONUNBUFFERED=""
            expect stdout talker line "1" within 300ms
            """).expectFailure(line: 2, containing: "waiting for a line of 'talker' stdout; it printed nothing on stdout (a program whose output is a pipe often holds it in a block buffer")
        try await ScenarioHarness.run("""
            spawn talker "sh -c 'echo one; sleep 5'"
            expect stdout talker line "one"
            expect stdout talker line "two" within 100ms
            """).expectFailure(line: 3, containing: "waiting for a line of 'talker' stdout; no line had arrived")
    }

    /// A line over `RegexSearch.inlineLimit` bytes is searched by its regex on a search thread:
    /// it passes with its groups as a short one does, and a regex that backtracks over it
    /// (from each of 6,000 starts to the end: seconds) times out on time, saying so.
    @Test func aLongLineIsSearchedBesideTheRun() async throws {
        let result = try await ScenarioHarness.run("""
            spawn talker "python3 -c 'print(\\"x\\" * 2000 + \\" 42\\")'"
            expect stdout talker line /^(?<name>x+) (?<size>\\d+)$/
            """)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("{size}=\"42\"") && $0.message.contains("{name}=\"\(String(repeating: "x", count: 2000))\"") },
                "\(result.log.map(\.message))")
        try await ScenarioHarness.run("""
            spawn talker "sh -c 'printf %06000d 0; echo; sleep 5'"
            expect stdout talker line /(?<name>[^ ]+) (?<size>\\d+)/ within 500ms
            """).expectFailure(line: 2, containing: "timed out after 500ms waiting for a line of 'talker' stdout; the regex was still searching a line of 6000 bytes")
    }

    /// A subject that writes far ahead of the expects keeps at most 1,024 lines waiting; the
    /// rest are dropped, and a failure says how many.
    @Test func linesFarAheadOfTheExpectsAreBoundedAndCounted() async throws {
        try await ScenarioHarness.run("""
            spawn counter "sh -c 'seq 1 3000; sleep 5'"
            sleep 500ms
            expect stdout counter line "1"
            repeat 1023 {
              expect stdout counter line any
            }
            expect stdout counter line any within 100ms
            """).expectFailure(line: 7, containing: "(1976 lines were dropped: over 1024 lines or 1 MiB waited unread)")
    }

    @Test func inputNeedsAnOpenStdinThatIsRead() async throws {
        try await ScenarioHarness.run("""
            spawn quiet "sleep 5"
            input quiet line "x"
            """).expectFailure(line: 2, containing: "'quiet' has no standard input to write: spawn it 'with stdin'")
        try await ScenarioHarness.run("""
            spawn echoer "cat" with stdin
            input echoer eof
            input echoer line "x"
            """).expectFailure(line: 3, containing: "'echoer' has no standard input to write: it was closed by 'input echoer eof'")
        // `sleep` never reads: the socket's buffers fill and the step fails at its timeout.
        try await ScenarioHarness.run("""
            set timeout 300ms
            spawn sink "sleep 5" with stdin
            repeat 100 {
              input sink "\(String(repeating: "x", count: 16_384))"
            }
            """).expectFailure(line: 4, containing: "it is not reading its standard input")
    }
}

/// Where a subject runs, and how its command is shown.
@Suite struct SubjectDirectoryTests {
    @Test func aSubjectRunsInItsScenarioFolderOrItsCwdAndKeepsItsQuoting() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-cwd-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/where.sh"
        try "#!/bin/sh\npwd -P\n".write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        let physical = URL(filePath: directory).resolvingSymlinksInPath().path(percentEncoded: false)
        let result = try await ScenarioHarness.run("""
            spawn here "./where.sh"
            expect stdout here line "{dir}"
            expect exit here code 0
            spawn there "../where.sh" cwd "sub"
            expect stdout there line "{dir}/sub"
            expect exit there code 0
            spawn quoted "printf '%s|' a '' b"
            expect stdout quoted line "a||b|"
            expect exit quoted code 0
            """, variables: ["dir": physical], path: directory + "/cwd.scn")
        result.expectPassed()
        #expect(result.log.contains { $0.message.hasSuffix("): printf '%s|' a '' b") }, "the command as written: \(result.log.map(\.message))")

        let missing = try await ScenarioHarness.run("spawn nowhere \"./where.sh\" cwd \"missing\"", path: directory + "/missing.scn")
        missing.expectFailure(line: 1, containing: "the subject's working directory \(directory)/missing is not a directory")
    }
}

/// `expect stdout NAME eventually line …` skips a chatty log's other lines, as `expect
/// eventually line` skips a connection's; without `eventually` the next line must match.
@Suite struct SubjectOutputEventuallyTests {
    @Test func eventuallySkipsTheLogsOtherLines() async throws {
        let spawn = #"spawn log "sh -c 'echo starting; echo loading config; echo accepted connection from 127.0.0.1; sleep 5'""#
        let skipping = try await ScenarioHarness.run(spawn + "\nexpect stdout log eventually line /^accepted connection from (?<from>.*)$/ within 2s\nspawn check \"test {from} = 127.0.0.1\"\nexpect exit check code 0")
        skipping.expectPassed()
        #expect(skipping.log.contains { $0.message.contains("after skipping 2 lines (24 bytes): \"starting\", \"loading config\"") }, "\(skipping.log.map(\.message))")
        let strict = try await ScenarioHarness.run(spawn + "\nexpect stdout log line /^accepted/ within 2s")
        strict.expectFailure(line: 2, containing: "expected a line matching /^accepted/", "\"starting\"")
        let never = try await ScenarioHarness.run(spawn + "\nexpect stdout log eventually line /listening/ within 300ms")
        never.expectFailure(line: 2, containing: "timed out after 300ms waiting for a line of 'log' stdout", "skipped 3 lines")
    }
}
