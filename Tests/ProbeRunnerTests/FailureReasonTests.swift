@testable import ProbeRunner
import ProbeResults
import Testing

/// A failure is a value: tests compare the family's reason, with its fields, not its words
/// (those are pinned once, by the goldens of FailureGoldenTests).
@Suite struct FailureReasonTests {
    private func reason(_ scenario: String) async throws -> any FailureReason {
        let result = try await ScenarioHarness.run(scenario)
        return try #require(result.failure).reason
    }

    /// The reason `steps` fail for, after a pair of connections: `c` the probe's client, `s`
    /// the end its listener accepted (`vars` go first, as `var NAME = "VALUE"` lines).
    private func reasonOnAPair(timeout: String = "500ms", vars: String = "", _ steps: String) async throws -> any FailureReason {
        try await reason("set timeout \(timeout)\n" + vars + """
            listen l 127.0.0.1:0
            connect c 127.0.0.1:{l.port}
            accept s on l

            """ + steps)
    }

    @Test func anUnknownConnectionNamesTheConnectionsThereAre() async throws {
        let reason = try await reasonOnAPair("use nope")
        #expect(reason as? CommonFailure == .unknown(what: "connection", name: "nope", known: ["c", "s"], none: "no named connection is open", listed: "open"))
    }

    @Test func aHeartbeatOfZeroIsARuleFailure() async throws {
        let reason = try await reasonOnAPair(vars: "var every = \"0ms\"\n", "c: on every {every} send line \"ping\"")
        #expect(reason as? RuleFailure == .heartbeatZero)
    }

    @Test func aWrongExitCodeCarriesBothCodes() async throws {
        let reason = try await reason("""
            set timeout 2s
            spawn sub "sh -c 'exit 3'"
            expect exit sub code 0
            """)
        #expect(reason as? SubjectFailure == .wrongExitCode(subject: "sub", expected: 0, ended: "exit code 3"))
    }

    @Test func aSubjectThatCannotStartIsTheEnvironments() async throws {
        let result = try await ScenarioHarness.run("""
            spawn sub "/nonexistent/program" cwd "/nonexistent-directory"
            """)
        let failure = try #require(result.failure)
        #expect(failure.kind == .environment)
        guard case .notADirectory(let path)? = failure.reason as? SubjectFailure else {
            Issue.record("not a SubjectFailure.notADirectory: \(failure.reason)")
            return
        }
        #expect(path == "/nonexistent-directory")
    }

    @Test func aTimedOutExpectSaysWhatWasUnconsumed() async throws {
        let reason = try await reasonOnAPair(timeout: "200ms", "s: send \"partial\"\nc: expect line \"whole\"")
        #expect(reason as? ConnectionFailure == .timedOut(byDeadline: false, wait: .milliseconds(200), waitingFor: "line \"whole\"",
                                                          misframing: nil, unconsumed: "\"partial\""))
    }

    @Test func aSplitPastTheEndNamesTheOffsetAndTheCount() async throws {
        let reason = try await reasonOnAPair(vars: "var at = \"9\"\n", "c: send line \"ping\" split at {at}")
        #expect(reason as? ConnectionFailure == .splitOutside(offset: 9, count: 6))
    }

    @Test func aTLSAssertionCarriesWhatWasAgreed() async throws {
        let reason = try await reason("""
            set timeout 2s
            listen l 127.0.0.1:0 tls
            connect c 127.0.0.1:{l.port} tls insecure version 1.2
            accept s on l
            c: assert tls version = 1.3
            """)
        #expect(reason as? TLSFailure == .assertion(what: "version 1.3", actual: "1.2"))
    }

    @Test func aWebSocketStepOnPlainTCPNamesTheConnection() async throws {
        let reason = try await reasonOnAPair("c: expect text \"hello\"")
        #expect(reason as? WebSocketFailure == .notWebSocket(connection: "connection 'c'"))
    }

    @Test func aProxyLegOnAProbeConnectionIsAWireFailure() async throws {
        let reason = try await reasonOnAPair("c: assert wire from client terminator crlf")
        #expect(reason as? WireFailure == .proxyDirectionOnConnection(direction: "from client", connection: "connection 'c'"))
    }

    @Test func aParallelOfNoCopies() async throws {
        let reason = try await reason("""
            set timeout 500ms
            var copies = "0"
            parallel {copies} {
              sleep 1ms
            }
            """)
        #expect(reason as? ParallelFailure == .noCopies)
    }

    @Test func networkReasonsSayWhoStoppedTheRun() {
        // Making a namespace needs privileges a test cannot count on: the values alone.
        #expect(NetworkFailure.faultNamesLink(step: "delay 5ms").kind == .assertion)
        #expect(NetworkFailure.cannotMake(name: "n", error: "EPERM").kind == .environment)
        #expect(NetworkFailure.faultNamesLink(step: "delay 5ms").description == "a network fault names its network alone, as in 'n: delay 5ms'")
    }
}
