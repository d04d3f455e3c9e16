import Synchronization
import Testing
@testable import ProbeScript

@Suite struct ParserTests {
    private func kind(_ text: String) throws -> StatementKind {
        try #require(try Fixtures.statements(text).first).kind
    }

    @Test func connectTellsNameFromAddressAndReadsOptions() throws {
        guard case .connect(let unnamed) = try kind("connect 127.0.0.1:{port}") else { Issue.record("not connect"); return }
        #expect(unnamed.name == nil)
        #expect(unnamed.address.text == "127.0.0.1:{port}")

        guard case .connect(let named) = try kind("connect b [::1]:7000 rcvbuf 1KiB sndbuf 4KiB timeout 1s expect refused") else { Issue.record("not connect"); return }
        #expect(named.name?.text == "b")
        #expect(named.address.literal == Address(host: "::1", port: 7000))
        #expect(named.receiveBuffer?.literal == 1024)
        #expect(named.sendBuffer?.literal == 4096)
        #expect(named.timeout?.literal == .seconds(1))
        #expect(named.expectedFailure == .refused)

        guard case .connect(let withOption) = try kind("connect {host}:{port} timeout 1s") else { Issue.record("not connect"); return }
        #expect(withOption.name == nil)
    }

    @Test func sendFormsAndModifiers() throws {
        guard case .send(let chunked) = try kind(#"send line "msg:hello" in chunks of 1 every 10ms"#) else { Issue.record("not send"); return }
        #expect(chunked.data == .line(Template(literal: "msg:hello")))
        #expect(chunked.chunkSize?.literal == 1)
        #expect(chunked.interval?.literal == .milliseconds(10))

        guard case .send(let split) = try kind(#"send line "msg:hello" split at 3,5 every 10ms"#) else { Issue.record("not send"); return }
        #expect(split.splitOffsets.map(\.literal) == [3, 5])

        guard case .send(let sweep) = try kind(#"send line "x" split sweep every 50ms"#) else { Issue.record("not send"); return }
        #expect(sweep.splitSweep)

        guard case .send(let paced) = try kind("send random 1MiB at 64KiB/s") else { Issue.record("not send"); return }
        #expect(paced.data == .random(Argument(1_048_576, text: "1MiB", at: SourceLocation(file: "test.scn", line: 1, column: 13))))
        #expect(paced.rate?.literal == 65536)

        guard case .send(let hex) = try kind(#"send hex"16 03""#) else { Issue.record("not send"); return }
        #expect(hex.data == .bytes(Template(literal: [0x16, 0x03])))

        // Only a send no modifier shapes is plain: the runner plans it without weighing them.
        #expect(hex.isPlain)
        #expect(![chunked, split, sweep, paced].contains { $0.isPlain })
        guard case .send(let untilClosed) = try kind(#"send line "x" until closed"#) else { Issue.record("not send"); return }
        #expect(!untilClosed.isPlain)
    }

    @Test func everyExpectForm() throws {
        typealias Check = (ProbeScript.Expectation) -> Bool
        var cases: [(String, Check)] = []
        cases.append((#"expect line "a""#, { if case .line(.exact) = $0 { return true }; return false }))
        cases.append(("expect line /^a (?<x>b)$/", { if case .line(.regex) = $0 { return true }; return false }))
        cases.append((#"expect line contains "a""#, { if case .line(.contains) = $0 { return true }; return false }))
        cases.append(("expect line any", { $0 == .line(.any) }))
        cases.append((#"expect lines unordered "a", "b", "c""#, { if case .linesUnordered(let l) = $0 { return l.count == 3 }; return false }))
        cases.append((#"expect "+PONG\r\n""#, { $0 == .exactBytes(Template(literal: "+PONG\r\n")) }))
        cases.append(("expect bytes 5", { if case .byteCount(_, nil) = $0 { return true }; return false }))
        cases.append((#"expect bytes 5 = "hello""#, { if case .byteCount(_, .some) = $0 { return true }; return false }))
        cases.append((#"expect until "\r\n\r\n" max 8KiB"#, { if case .until(_, let max) = $0 { return max.literal == 8192 }; return false }))
        cases.append((#"expect until /\r\n\r\n/ max 8KiB"#, { if case .untilMatch(let regex, let max) = $0 { return regex.pattern == #"\r\n\r\n"# && max.literal == 8192 }; return false }))
        cases.append(("expect eventually line /^Content-Length: (?<len>\\d+)$/i max 64KiB", {
            if case .eventually(.regex(let regex), let max, nil) = $0 { return regex.ignoresCase && regex.groupNames == ["len"] && max?.literal == 65536 }; return false
        }))
        cases.append((#"expect eventually line contains "ok""#, { if case .eventually(.contains, nil, nil) = $0 { return true }; return false }))
        cases.append(("expect any", { $0 == .any }))
        cases.append(("expect eof", { $0 == .eof }))
        cases.append(("expect reset", { $0 == .reset }))
        cases.append(("expect close", { $0 == .close }))
        cases.append(("expect nothing for 300ms", { if case .nothing(let d) = $0 { return d.literal == .milliseconds(300) }; return false }))
        for (text, check) in cases {
            guard case .expect(let expectation, _) = try kind(text) else { Issue.record("\(text): not an expect"); continue }
            #expect(check(expectation), "\(text) parsed as \(expectation)")
        }
        guard case .expect(_, let within) = try kind(#"expect line "pong" within 5ms"#) else { Issue.record("not expect"); return }
        #expect(within?.literal == .milliseconds(5))
    }

    @Test func regexGroupsDefineVariablesForLaterSteps() throws {
        let statements = try Fixtures.statements("""
            expect line /^(?<who>\\w+): (?<text>.*)$/
            send line "{who} said {text}"
            """, variables: [])
        #expect(statements.count == 2)
        #expect(statements[0].kind.definedVariables == ["who", "text"])
    }

    @Test func blocksNestAndSetTheirIndexVariables() throws {
        let statements = try Fixtures.statements("""
            parallel 5 {
              connect {host}:{port}
              repeat 30 { send "X-a: {i} {copy}\\r\\n" ; sleep 1s }
            }
            """)
        guard case .parallel(let copies, let body) = statements[0].kind else { Issue.record("not parallel"); return }
        #expect(copies.literal == 5)
        guard case .repeatBlock(let count, let inner, _) = body[1].kind else { Issue.record("not repeat"); return }
        #expect(count.literal == 30)
        #expect(inner.count == 2)
        #expect(statements[0].text == "parallel 5")
    }

    @Test func blockVariablesDoNotLeakOutOfTheirBlock() {
        let result = Fixtures.load("repeat 2 { sleep 1ms }\nsend line \"{i}\"")
        #expect(result.diagnostics.map(\.message) == ["unknown variable 'i'"])
    }

    @Test func aNonStrictBlockHoldsItsStepsAndKeepsItsNamesInside() throws {
        let statements = try Fixtures.statements("non-strict {\n  expect line /(?<who>\\w+)/\n  send line \"{who}\"\n}")
        guard case .nonStrict(let body, nil) = statements[0].kind else { Issue.record("not non-strict: \(statements[0].kind)"); return }
        #expect(body.map(\.text) == ["expect line /(?<who>\\w+)/", "send line \"{who}\""])
        let leaked = Fixtures.load("non-strict { expect line /(?<who>\\w+)/ }\nsend line \"{who}\"")
        #expect(leaked.diagnostics.map(\.message) == ["unknown variable 'who'"])
        let unopened = Fixtures.load("non-strict expect line \"x\"")
        #expect(unopened.diagnostics.map(\.message) == ["expected '{' to open the non-strict block, found 'expect'"])
    }

    @Test func aStringFollowedByStarNIsRepeated() throws {
        let statements = try Fixtures.statements("send \"ab\" * 3\nsend hex\"fe\" * 2\nexpect line \"x{i}\" * 2\nsend \"*\" * 65536", variables: ["i"])
        guard case .send(let first) = statements[0].kind, case .bytes(let bytes) = first.data else { Issue.record("\(statements[0].kind)"); return }
        #expect(bytes.literalBytes == Array("ababab".utf8))
        guard case .send(let second) = statements[1].kind, case .bytes(let hex) = second.data else { Issue.record("\(statements[1].kind)"); return }
        #expect(hex.literalBytes == [0xFE, 0xFE])
        guard case .expect(.line(.exact(let line)), _) = statements[2].kind else { Issue.record("\(statements[2].kind)"); return }
        #expect(line.variables.map(\.name) == ["i", "i"])
        guard case .send(let long) = statements[3].kind, case .bytes(let stars) = long.data else { Issue.record("\(statements[3].kind)"); return }
        #expect(stars.literalBytes?.count == 65536)
        #expect(stars.parts == [.repeated(Array("*".utf8), times: 65536)], "kept short until rendered: a suite of 16 MiB messages loads small")
        #expect(stars.literalCount == 65536)
        #expect(stars.render { _ in nil } == Array(repeating: UInt8(ascii: "*"), count: 65536))
        let after = Template(parts: [.bytes(Array("pre".utf8)), .repeated(Array("abc".utf8), times: 5), .bytes(Array("!".utf8))])
        #expect(after.render { _ in nil } == Array("preabcabcabcabcabc!".utf8), "copies doubled, then cut to the count, after what came before")
        #expect(after.literalCount == 19)
        #expect(Fixtures.load("send \"x\" * 0").diagnostics.map(\.message) == ["'* N' repeats a string N times: N is a number written out (1 or more) or one {variable}"])
        let byVariable = Fixtures.load("send \"ab\" * {n}", variables: ["n"])
        #expect(byVariable.diagnostics.isEmpty)
        guard case .send(let step)? = byVariable.scenario?.statements.first?.kind, case .bytes(let counted) = step.data else {
            Issue.record("not a send of bytes")
            return
        }
        #expect(counted.variables.map(\.name) == ["n"], "the count is a variable the checks know of")
        #expect(counted.render { $0 == "n" ? "3" : nil } == Array("ababab".utf8))
        #expect(counted.render { _ in "none" }.isEmpty, "a count that is not a number repeats nothing")
        #expect(counted.render { _ in "99999999" }.count == 16 << 20, "16 MiB at most")
        #expect(Fixtures.load("send \"{v}\" * {n}", variables: ["n", "v"]).diagnostics.map(\.message) == ["'* {n}' repeats a string written out, without variables"])
        #expect(Fixtures.load("send \"xy\" * 9000000").diagnostics.map(\.message) == ["'* 9000000' makes 18000000 bytes; a repeated string makes at most 16MiB"])
    }

    @Test func prefixesNameTheConnection() throws {
        let statement = try #require(try Fixtures.statements(#"a: send line "iam:Luke""#).first)
        #expect(statement.connection?.text == "a")
        #expect(statement.text == #"a: send line "iam:Luke""#)
    }

    @Test func wireAssertions() throws {
        let cases: [(String, WireAssertion.Property)] = [
            ("assert wire from peer terminator crlf", .terminator(.crlf)),
            ("assert wire from peer lines unsplit", .linesUnsplit),
            (#"assert wire from peer line "+OK" in 1 segment"#, .lineInOneSegment(.exact(Template(literal: "+OK")))),
            ("assert wire from peer fin", .fin), ("assert wire from peer no rst", .noRst),
            ("assert wire from peer no fin", .noFin), ("assert wire from peer rst", .rst),
            ("assert wire from peer zero-window", .zeroWindow),
        ]
        for (text, property) in cases {
            guard case .assertWire(let assertion) = try kind(text) else { Issue.record("\(text): not assert"); continue }
            #expect(assertion.property == property, "\(text)")
        }
        guard case .assertWire(let segments) = try kind("assert wire from probe segments = 9") else { Issue.record("not assert"); return }
        #expect(segments.direction == .probe)
        guard case .segments(.equal, let nine) = segments.property else { Issue.record("not segments"); return }
        #expect(nine.literal == 9)
        guard case .assertWire(let maxSegment) = try kind("assert wire from peer max-segment <= 1KiB") else { Issue.record("not assert"); return }
        guard case .maxSegment(.lessOrEqual, let size) = maxSegment.property else { Issue.record("not max-segment"); return }
        #expect(size.literal == 1024)
    }

    @Test func subjectsAndSlowReads() throws {
        guard case .spawn(let spawn) = try kind(#"spawn server "./my-server" ready when stdout /listening/ env RUST_LOG=debug A="x y""#) else { Issue.record("not spawn"); return }
        #expect(spawn.name.text == "server")
        #expect(spawn.environment.map(\.key) == ["RUST_LOG", "A"])
        #expect(spawn.environment.map(\.value) == [Template(literal: "debug"), Template(literal: "x y")])
        #expect(spawn.readinessWithin == nil, "without 'within' the step timeout applies")
        guard case .spawn(let patient) = try kind(#"spawn db "./db" ready on 127.0.0.1:{port} within 30s env A=b"#) else { Issue.record("not spawn"); return }
        #expect(patient.readinessWithin?.literal == .seconds(30))
        #expect(patient.environment.map(\.key) == ["A"])
        let misplaced = Fixtures.load(#"spawn db "./db" within 30s"#)
        #expect(misplaced.diagnostics.first?.message.contains("'within' sets how long to wait for readiness") == true, "\(misplaced.diagnostics.map(\.message))")
        guard case .readSlowly(let read) = try kind("read slowly 1 byte every 100ms for 2s") else { Issue.record("not read"); return }
        #expect(read.bytesPerRead.literal == 1)
        guard case .after(let duration) = read.stop else { Issue.record("not for"); return }
        #expect(duration.literal == .seconds(2))
        guard case .readSlowly(let sized) = try kind("read slowly 16KiB every 10ms until eof") else { Issue.record("a size per read"); return }
        #expect(sized.bytesPerRead.literal == 16 * 1024 && sized.stop == .eof)
        guard case .spawn(let moved) = try kind(#"spawn s "./s" cwd "fixtures/a""#) else { Issue.record("not spawn cwd"); return }
        #expect(moved.workingDirectory?.literalBytes == Array("fixtures/a".utf8))
        guard case .expectExit(let exit) = try kind("expect exit client code 0 within 3s") else { Issue.record("not exit"); return }
        #expect(exit.code?.literal == 0)
        #expect(try kind("kill server") == .kill(Name("server", at: SourceLocation(file: "test.scn", line: 1, column: 6)), signal: nil))
    }

    @Test func aSubjectsStandardStreams() throws {
        guard case .spawn(let spawn) = try kind(#"spawn client "./client" ready when stdout /up/ within 2s with stdin env A=b"#) else { Issue.record("not spawn"); return }
        #expect(spawn.withStdin && spawn.readinessWithin?.literal == .seconds(2) && spawn.environment.map(\.key) == ["A"])
        guard case .spawn(let plain) = try kind(#"spawn client "./client""#) else { Issue.record("not spawn"); return }
        #expect(!plain.withStdin, "without 'with stdin' a subject reads /dev/null")

        let statements = try Fixtures.statements("var who = \"Luke\"\ninput client line \"msg:{who}\"")
        guard case .input(let line) = statements[1].kind, case .line(let text) = line.data else { Issue.record("not input line"); return }
        #expect(line.name.text == "client" && text.literalBytes == nil, "the line interpolates at run time")
        #expect(try kind(#"input client hex"0a""#) == .input(SubjectInput(name: Name("client", at: SourceLocation(file: "test.scn", line: 1, column: 7)), data: .bytes(Template(literal: "\n")))))
        guard case .input(let eof) = try kind("input client eof") else { Issue.record("not input eof"); return }
        #expect(eof.data == .eof)
        let random = Fixtures.load("input client random 1")
        #expect(random.diagnostics.first?.message == "expected one of 'line', 'eof' after input NAME (or a \"string\" or hex\"..\"), found 'random'")

        guard case .expectOutput(let out) = try kind(#"expect stdout client line "Leia: hi" within 1s"#) else { Issue.record("not expect stdout"); return }
        #expect(out.stream == .stdout && out.name.text == "client" && out.awaited == .line(.exact(Template(literal: "Leia: hi"))) && out.within?.literal == .seconds(1))
        guard case .expectOutput(let end) = try kind("expect stdout client eof within 2s") else { Issue.record("not expect stdout eof"); return }
        #expect(end.awaited == .eof && end.within?.literal == .seconds(2))
        guard case .expectOutput(let err) = try kind("expect stderr server line /listening on (?<port>\\d+)/") else { Issue.record("not expect stderr"); return }
        #expect(err.stream == .stderr && err.within == nil)
        #expect(StatementKind.expectOutput(err).definedVariables == ["port"], "a regex's groups set variables")
        let prefixed = Fixtures.load(#"client: expect stdout client line "x""#)
        #expect(prefixed.diagnostics.first?.message == "'expect' does not act on a connection, so it takes no 'client:' prefix")
        let withoutLine = Fixtures.load(#"expect stdout client "x""#)
        #expect(withoutLine.diagnostics.first?.message.hasPrefix("expected one of 'line', 'eventually', 'eof' after expect stdout NAME") == true, "\(withoutLine.diagnostics.map(\.message))")
    }

    @Test func interpolatedArgumentsWaitForRunTime() throws {
        let statements = try Fixtures.statements("var d = 250ms\nsleep {d}")
        guard case .sleep(let duration) = statements[1].kind else { Issue.record("not sleep"); return }
        #expect(duration.literal == nil)
        #expect(duration.text == "{d}")
    }

    @Test func includesSpliceAndCyclesAreReported() {
        let ok = Fixtures.load("include \"lib/common.scn\"\nsend line \"{greeting}\"", files: ["lib/common.scn": "var greeting = \"hi\""])
        #expect(ok.diagnostics.isEmpty)
        #expect(ok.scenario?.statements.count == 2)
        let cycle = Fixtures.load("include \"b.scn\"", files: ["b.scn": "include \"test.scn\""])
        #expect(cycle.diagnostics.map(\.message) == ["include cycle: test.scn -> b.scn -> test.scn"])
    }

    /// Loads that share `ParsedIncludes` read and parse a file they all include once, and each
    /// gets what a load of its own gets: the included statements, sources and diagnostics.
    @Test func sharedIncludesAreReadOnceAndLoadAsBefore() {
        let files = ["a.scn": "include \"lib/server.inc\"\nsend line \"a\"", "b.scn": "include \"lib/server.inc\"\nsend line \"b\"",
                     "lib/server.inc": "var host = \"127.0.0.1\"\nsleep soon"]
        let reads = Mutex<[String]>([])
        let read: ScenarioLoader.FileReader = { path in
            reads.withLock { $0.append(path) }
            guard let text = files[path] else { throw FixtureError.missing(path) }
            return text
        }
        let includes = ParsedIncludes()
        let shared = ["a.scn", "b.scn"].map { ScenarioLoader.load($0, includes: includes, read: read) }
        #expect(reads.withLock { $0 } == ["a.scn", "lib/server.inc", "b.scn"])
        let alone = ["a.scn", "b.scn"].map { ScenarioLoader.load($0, read: read) }
        for (one, other) in zip(shared, alone) {
            #expect(one.diagnostics.map(\.description) == other.diagnostics.map(\.description))
            #expect(one.diagnostics.map(\.location.file) == ["lib/server.inc"])
            #expect(one.sources.map(\.path) == other.sources.map(\.path))
        }
        let fixed = files.merging(["lib/server.inc": "var host = \"127.0.0.1\""]) { $1 }
        let readFixed: ScenarioLoader.FileReader = { path in
            guard let text = fixed[path] else { throw FixtureError.missing(path) }
            return text
        }
        let fixedIncludes = ParsedIncludes()
        let loads = ["a.scn", "b.scn"].map { ScenarioLoader.load($0, includes: fixedIncludes, read: readFixed) }
        let texts = loads.map { $0.scenario?.statements.map { $0.text } ?? [] }
        #expect(texts == [["var host = \"127.0.0.1\"", "send line \"a\""], ["var host = \"127.0.0.1\"", "send line \"b\""]])
    }

    @Test func pathsResolveFromTheIncludingFileOrFromHereWhenItWasPiped() {
        #expect(ScenarioLoader.resolve("lib/x.inc", from: "Scenarios/a.scn") == "Scenarios/lib/x.inc")
        #expect(ScenarioLoader.resolve("../x.inc", from: "/srv/s/a.scn") == "/srv/x.inc")
        #expect(ScenarioLoader.resolve("/etc/x.inc", from: "/dev/stdin") == "/etc/x.inc")
        for piped in ["/dev/stdin", "/dev/fd/63", "/proc/self/fd/0"] {
            #expect(ScenarioLoader.resolve("lib/x.inc", from: piped) == "lib/x.inc", "from \(piped)")
        }
        let missing = Fixtures.load("include \"nope.inc\"", name: "/dev/stdin")
        #expect(missing.diagnostics.first?.hint == "a piped scenario's paths are relative to the current directory")
    }

    @Test func captureSettings() throws {
        #expect(try kind("set capture on") == .set(.capture(.on)))
        #expect(try kind("set capture off") == .set(.capture(.off)))
        #expect(try kind("set capture headers") == .set(.capture(.headers)))
        let wrong = Fixtures.load("set capture payloads")
        #expect(wrong.diagnostics.first?.message.contains("expected one of 'on', 'off', 'headers' after set capture") == true,
                "\(wrong.diagnostics.map(\.message))")
    }

    @Test func everyErrorOfAFileIsReported() {
        let result = Fixtures.load("sned \"x\"\nsleep soon\nexpect line /(/\nsend \"\\q\"")
        #expect(result.diagnostics.count == 4)
        #expect(result.diagnostics.map(\.location.line) == [1, 2, 3, 4])
    }

    /// A file with more regexes than `RegexProblems.parallelFrom` compiles them all at once:
    /// each invalid one is still reported on its own line, a repeated one on each of its lines.
    @Test func manyRegexesCheckedTogetherKeepEachErrorOnItsLine() {
        var lines = (1...40).map { "expect line /^reply \($0) (?<n\($0)>\\d+)$/" }
        lines[6] = "expect line /a(b/"
        lines[30] = "expect line /[z-a]/"
        lines[34] = "expect line /a(b/"
        #expect(Set(lines).count > RegexProblems.parallelFrom)
        let result = Fixtures.load(lines.joined(separator: "\n"))
        #expect(result.diagnostics.map(\.location.line) == [7, 31, 35])
        #expect(result.diagnostics.map(\.location.column) == [13, 13, 13])
        #expect(result.diagnostics.map { $0.message.hasPrefix("invalid regex /a(b/: ") } == [true, false, true])
        #expect(result.diagnostics[1].message.hasPrefix("invalid regex /[z-a]/: "))
    }
}

/// Every numeric argument of the grammar takes a `{variable}`: sizes, counts, widths,
/// durations, rates, ports, close codes, slice bounds.
@Suite struct NumericVariableTests {
    @Test func everyNumericArgumentTakesAVariable() {
        let text = """
            set timeout {d}
            set deadline {d}
            set max-line {n}
            set max-message {n}
            set framing length {n} little
            set framing lines
            spawn server "x --port {port}" ready on {host}:{port} within {d}
            expect exit server code {n} within {d}
            expect stdout server line "x" within {d}
            connect c {host}:{port} timeout {d} rcvbuf {n} sndbuf {n}
            listen l {host}:{port}
            accept s on l within {d}
            send "abc" in chunks of {n} every {d} at {n}KiB/s until closed within {d}
            send "abc" split at {n},{m} every {d}
            send random {n}
            send text "x" in frames of {n} every {d}
            send close {n} "bye"
            expect line "x" within {d}
            expect bytes {n}
            expect until "x" max {n}
            expect until /x/ max {n}
            expect eventually line "x" max {n}
            expect nothing for {d}
            expect message bytes {n}
            expect binary bytes {n}
            expect close {n}
            read slowly {n} bytes every {d} for {d}
            read slowly {n} bytes every {d} total {n}
            sleep {d}
            repeat {n} { send "x" } until closed
            parallel {n} { sleep {d} }
            assert wire from peer segments <= {n}
            assert wire from peer max-segment <= {n}
            assert wire from peer bytes = {n}
            assert wire from peer records = {n}
            proxy p {host}:{port} to {host}:{port}
            p: delay {d} jitter {d}
            p: rate {n}KiB/s
            p: slice {n}..{m} every {d}
            p: cut after {n} bytes
            """
        let result = ScenarioLoader.load("t.scn", predefinedVariables: ["d", "n", "m", "host", "port"]) { _ in text }
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
    }
}
