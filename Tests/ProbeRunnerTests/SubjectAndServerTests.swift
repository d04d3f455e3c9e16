import Foundation
import ProbeRunner
import TestSupport
import Testing

/// Issue 5: the probe as a server, spawned subjects, and parallel copies.
@Suite struct SubjectAndServerTests {
    @Test(.curl)
    func theProbeServesARealHTTPClient() async throws {
        let result = try await ScenarioHarness.run("""
            var port = free-port
            listen l 127.0.0.1:{port}
            spawn client "curl -s -f -m 5 -o /dev/null http://127.0.0.1:{port}/hello"
            accept c on l within 5s
            expect line "GET /hello HTTP/1.1"
            expect until "\\r\\n\\r\\n" max 8KiB
            send "HTTP/1.1 200 OK\\r\\nContent-Length: 5\\r\\nConnection: close\\r\\n\\r\\nhello"
            close
            expect exit client code 0 within 5s
            """)
        result.expectPassed()
        let failing = try await ScenarioHarness.run("""
            var port = free-port
            listen l 127.0.0.1:{port}
            spawn client "curl -s -f -m 5 -o /dev/null http://127.0.0.1:{port}/"
            accept c on l within 5s
            expect until "\\r\\n\\r\\n" max 8KiB
            send "HTTP/1.1 500 Oops\\r\\nContent-Length: 0\\r\\nConnection: close\\r\\n\\r\\n"
            close
            expect exit client code 0 within 5s
            """)
        failing.expectFailure(line: 8, containing: "expected 'client' to exit with code 0, but it ended with exit code 22")
        #expect(failing.notes.contains { $0.hasPrefix("subject 'client'") })
    }

    @Test func aListenerTakesSeveralAcceptsOverIPv4AndIPv6() async throws {
        for host in ["127.0.0.1", "[::1]"] {
            try await ScenarioHarness.run("""
                var port = free-port
                listen l \(host):{port}
                connect a \(host):{port}
                connect b \(host):{port}
                accept x on l
                accept y on l
                a: send line "from a"
                b: send line "from b"
                x: expect line "from a"
                y: expect line "from b"
                accept z on l within 100ms
                """).expectFailure(line: 11, containing: "no client connected within 100ms to listener 'l'")
        }
    }

    @Test func readinessByPortAndByOutput() async throws {
        try await ScenarioHarness.run("""
            var port = free-port
            spawn web "python3 -m http.server {port} --bind 127.0.0.1" ready on 127.0.0.1:{port} within 20s
            connect 127.0.0.1:{port}
            send "GET / HTTP/1.0\\r\\n\\r\\n"
            expect line /^HTTP\\/1\\.0 200/
            spawn talker "sh -c 'echo starting; echo ready on 4711; sleep 5'" ready when stdout /ready on (?<where>\\d+)/
            kill talker
            spawn check "sh -c 'exit {where}'"
            expect exit check within 2s
            """).expectPassed()
    }

    /// A subject that says it is ready and exits at once is ready: its line can reach the tail
    /// after its exit is seen. Sixty tries, as that order is a race.
    @Test func aLineWrittenJustBeforeExitingStillMakesTheSubjectReady() async throws {
        for _ in 0..<60 {
            try await ScenarioHarness.run("""
                spawn once "sh -c 'echo ready'" ready when stdout /ready/
                expect exit once code 0
                """).expectPassed()
        }
        try await ScenarioHarness.run("spawn once \"sh -c 'echo other'\" ready when stdout /ready/")
            .expectFailure(line: 1, containing: "'once' ended (exit code 0) before its stdout matched /ready/")
    }

    @Test func readinessWaitsAsLongAsWithinSaysNotTheStepTimeout() async throws {
        func slowStart(_ seconds: String) -> String { #"spawn slow "sh -c 'sleep \#(seconds); echo up; sleep 5'" ready when stdout /up/"# }
        try await ScenarioHarness.run("set timeout 100ms\n\(slowStart("0.3")) within 5s").expectPassed()
        let impatient = try await ScenarioHarness.run("set timeout 100ms\n\(slowStart("3"))")
        #expect(impatient.failure?.kind == .environment)
        impatient.expectFailure(line: 2, containing: "'slow' stdout did not match /up/ within 100ms; it printed nothing on stdout", "stdbuf -oL")
        let chatty = try await ScenarioHarness.run(#"spawn chatty "sh -c 'printf abc; sleep 5'" ready when stdout /up/ within 200ms"#)
        chatty.expectFailure(line: 1, containing: "within 200ms; it printed 3 bytes on stdout, none of them a line that matched")
        let neverListens = try await ScenarioHarness.run("""
            var port = free-port
            spawn quiet "sleep 5" ready on 127.0.0.1:{port} within 200ms
            """)
        neverListens.expectFailure(line: 2, containing: "'quiet' did not listen on 127.0.0.1:")
        neverListens.expectFailure(line: 2, containing: "within 200ms")
    }

    /// `ready on` several addresses: ready once every one listens (a broker's TCP and
    /// WebSocket ports); one that never listens fails the wait, naming it.
    @Test func readinessOnSeveralPorts() async throws {
        let twoPorts = #"spawn two "python3 -c 'import socket, sys, time\nfor p in sys.argv[1:]:\n  s = socket.socket(); s.bind((\"127.0.0.1\", int(p))); s.listen(); globals()[p] = s\ntime.sleep(5)' {a} {b}" ready on 127.0.0.1:{a}, 127.0.0.1:{b} within 10s"#
        let ready = try await ScenarioHarness.run("var a = free-port\nvar b = free-port\n" + twoPorts + "\nconnect 127.0.0.1:{b}")
        ready.expectPassed()
        #expect(ready.log.filter { $0.message.contains("listening on 127.0.0.1:") }.count == 2, "\(ready.log.map(\.message))")
        let one = try await ScenarioHarness.run("var a = free-port\nvar b = free-port\nvar c = free-port\n"
            + #"spawn one "python3 -c 'import socket, time; s = socket.socket(); s.bind((\"127.0.0.1\", {a})); s.listen(); time.sleep(5)'" ready on 127.0.0.1:{a}, 127.0.0.1:{c} within 300ms"#)
        one.expectFailure(line: 4, containing: "'one' did not listen on 127.0.0.1:", "within 300ms")
    }

    /// A long line is searched beside the run: a regex that backtracks over it still ends the
    /// wait on time, saying so, and one that does not reads the same line.
    @Test(.timed) func readinessOnALongLineEndsOnTimeWhileItsRegexSearches() async throws {
        // 6,000 zeros: about 4 s on the search thread (the search is quadratic), which it
        // finishes after the test; the second the wait allows is for the line to arrive on a
        // busy machine (with 300 ms, it sometimes came after the wait had ended).
        let long = #"spawn long "sh -c 'printf %06000d 0; echo; sleep 5'" ready when stdout "#
        let searching = try await ScenarioHarness.run(long + #"/(?<name>[^ ]+) (?<size>\d+)/ within 1s"#)
        #expect(searching.failure?.kind == .environment)
        searching.expectFailure(line: 1, containing: "'long' stdout did not match", "within 1s; the regex was still searching a line of 6000 bytes")
        let ready = try await ScenarioHarness.run(long + "/^0+$/ within 10s")
        ready.expectPassed()
        #expect(ready.log.contains { $0.message.contains("stdout said \"\(String(repeating: "0", count: 6000))\"") }, "\(ready.log.map(\.message))")
    }

    @Test func aSubjectThatCrashesAtStartIsAnEnvironmentError() async throws {
        let crashed = try await ScenarioHarness.run("var port = free-port\nspawn s \"sh -c 'echo boom >&2; exit 7'\" ready on 127.0.0.1:{port}")
        #expect(crashed.failure?.kind == .environment)
        crashed.expectFailure(line: 2, containing: "'s' ended (exit code 7) before it listened on 127.0.0.1:")
        #expect(crashed.notes.contains { $0.contains("| boom") }, "the subject's stderr is shown")
        let missing = try await ScenarioHarness.run("spawn s \"no-such-program-xyz\"")
        #expect(missing.failure?.kind == .environment)
        missing.expectFailure(line: 1, containing: "cannot find 'no-such-program-xyz'")
    }

    /// "Address already in use" says only that someone holds the port; the failure says who.
    @Test func aPortThatIsTakenIsExplainedWithItsHolder() async throws {
        let spawned = try await ScenarioHarness.run("""
            var p = free-port
            spawn squatter "python3 -c 'import socket,time; s=socket.socket(); s.bind((\\"127.0.0.1\\", {p})); print(\\"up\\", flush=True); time.sleep(10)'" ready when stdout /up/
            spawn server "python3 -c 'import socket; s=socket.socket(); s.bind((\\"127.0.0.1\\", {p})); s.listen()'" ready on 127.0.0.1:{p} within 5s
            """)
        spawned.expectFailure(line: 3, containing: "'server' ended (exit code 1) before it listened on 127.0.0.1:",
                              "now:\n  BOUND (not listening) 127.0.0.1:", "python3 -c import socket,time; s=socket.socket")
        let listened = try await ScenarioHarness.run("""
            var p = free-port
            listen l 127.0.0.1:{p}
            listen m 127.0.0.1:{p}
            """)
        listened.expectFailure(line: 3, containing: "Address already in use\nport ", "  LISTEN 127.0.0.1:", "(tcpprobe itself)")
    }

    /// A server listening on another address of the port is not ready for the one named.
    @Test func readinessWaitsForTheAddressItNames() async throws {
        let server = #"python3 -c 'import socket,time; s=socket.socket(); s.bind((\"127.0.0.2\", {p})); s.listen(); print(\"up\", flush=True); time.sleep(3)'"#
        // Listening on 127.0.0.2 before the wait on 127.0.0.1 starts, so its end lists it.
        try await ScenarioHarness.run("""
            var p = free-port
            spawn other "\(server)" ready when stdout /up/
            spawn server "sleep 5" ready on 127.0.0.1:{p} within 300ms
            """).expectFailure(line: 3, containing: "'server' did not listen on 127.0.0.1:", "  LISTEN 127.0.0.2:")
        try await ScenarioHarness.run("""
            var p = free-port
            spawn server "\(server)" ready on 127.0.0.2:{p}
            connect 127.0.0.2:{p}
            """).expectPassed()
    }

    /// A server left listening on the port would pass readiness while the subject fails to
    /// bind: the spawn fails first and names it.
    @Test func aPortAlreadyListeningFailsTheSpawnBeforeItStarts() async throws {
        let squatter = try LoopbackSocket.bound(listening: true)
        defer { close(squatter.fd) }
        let result = try await ScenarioHarness.run("""
            spawn server "sleep 5" ready on 127.0.0.1:\(squatter.port)
            """)
        result.expectFailure(line: 1, containing: "port \(squatter.port) already has a listener before 'server' starts, so its readiness cannot be told",
                             "  LISTEN 127.0.0.1:\(squatter.port), pid \(getpid()) (tcpprobe itself)")
        #expect(result.notes.allSatisfy { !$0.hasPrefix("subject 'server'") }, "nothing was spawned")
    }

    /// A server that forks into the background exits 0 while its port listens: the failure
    /// says so and how to keep it in the foreground, since tcpprobe could not stop it. Whether
    /// readiness sees the exit or the listener first, the spawn fails, at the latest when the
    /// run ends.
    @Test func aSubjectThatDaemonizesIsToldToStayInTheForeground() async throws {
        for exitFirst in [true, false] {
            // Forking before listening, the first process exits before the port listens;
            // listening before forking (as nginx does), readiness sees the port first, and the
            // first process's exit half a second later fails the run at its end.
            let (before, after) = exitFirst ? ("os.fork() and os._exit(0); ", "s.listen(); ")
                : ("s.listen(); os.fork() and (time.sleep(0.5), os._exit(0)); ", "")
            let result = try await ScenarioHarness.run("""
                var p = free-port
                spawn server "python3 -c 'import os,socket,time; s=socket.socket(); s.bind((\\"127.0.0.1\\", {p})); \(before)os.setsid(); \(after)time.sleep(3)'" ready on 127.0.0.1:{p} within 5s
                sleep 1s
                """)
            result.expectFailure(line: 2, containing: "'server' ended (exit code 0) ", "  LISTEN 127.0.0.1:", "put itself in the background")
            // Its fork carries the subject's token, so the scenario stops it too.
            #expect(result.notes.contains { $0.hasPrefix("subject 'server' left pid ") && $0.contains("running outside its process group") },
                    "\(result.notes)")
        }
        // When a later step fails first, the notes still say it.
        let failed = try await ScenarioHarness.run("""
            var p = free-port
            spawn server "python3 -c 'import os,socket,time; s=socket.socket(); s.bind((\\"127.0.0.1\\", {p})); s.listen(); os.fork() and (time.sleep(0.5), os._exit(0)); os.setsid(); time.sleep(3)'" ready on 127.0.0.1:{p} within 5s
            sleep 1s
            connect 127.0.0.1:{p}
            expect line "never" within 100ms
            """)
        failed.expectFailure(line: 5, containing: "timed out")
        #expect(failed.notes.contains { $0.hasPrefix("line 2: 'server' ended (exit code 0) while 127.0.0.1:") && $0.contains("put itself in the background") },
                "\(failed.notes)")
    }

    /// A subject that ends on purpose, or whose port the probe listens on after it, is no daemon.
    @Test func aSubjectEndedOnPurposeIsNoDaemon() async throws {
        // A server that exits 0 when its stdin ends.
        let server = #"python3 -c 'import socket,sys; s=socket.socket(); s.bind((\"127.0.0.1\", {p})); s.listen(); sys.stdin.read()'"#
        try await ScenarioHarness.run("""
            var p = free-port
            spawn server "\(server)" ready on 127.0.0.1:{p} with stdin
            input server eof
            expect exit server code 0
            """).expectPassed()
        try await ScenarioHarness.run("""
            var p = free-port
            spawn server "\(server)" ready on 127.0.0.1:{p} with stdin
            input server eof
            sleep 1s
            listen l 127.0.0.1:{p}
            """).expectPassed()
    }

    /// A subject inherits none of the probe's sockets: holding a copy, it kept `close` from
    /// sending FIN and `abort` from sending RST for as long as it ran.
    @Test func aSubjectSpawnedLaterHoldsNoneOfTheProbesConnections() async throws {
        let result = try await ScenarioHarness.run("""
            var port = free-port
            listen l 127.0.0.1:{port}
            connect a 127.0.0.1:{port}
            accept b on l
            connect c 127.0.0.1:{port}
            accept d on l
            spawn bystander "sleep 10"
            a: close
            b: expect eof within 1s
            c: abort
            d: expect reset within 1s
            """)
        result.expectPassed()
    }

    @Test func aSubjectThatIgnoresSigtermIsKilledAfterTheGracePeriod() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        let result = try await ScenarioHarness.run("""
            spawn stubborn "sh -c 'trap \\"\\" TERM; echo up; while true; do sleep 0.05; done'" ready when stdout /up/
            kill stubborn
            """)
        result.expectPassed()
        #expect(result.log.contains { $0.message.hasPrefix("stopped 'stubborn' in ") && $0.message.hasSuffix(": killed by signal 9") }, "\(result.log.map(\.message))")
        #expect(clock.now - started >= .seconds(2))
    }

    /// A sweep re-runs its subjects: when stopping them is a good part of the sweep's time, the
    /// result says so, and how to keep a slow server outside.
    @Test func aSweepSaysWhenStoppingSubjectsTookMuchOfIt() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            spawn slow "sh -c 'trap \\"sleep 0.4; exit 0\\" TERM; echo up; while true; do sleep 0.05; done'" ready when stdout /up/
            connect 127.0.0.1:{port}
            send "abc" split sweep
            """, against: peer)
        result.expectPassed()
        #expect(result.stoppingSubjects >= .milliseconds(1200), "three runs of a 0.4 s exit: \(result.stoppingSubjects)")
        #expect(result.notes.contains { $0.hasPrefix("stopping subjects took ") && $0.contains("(3 runs): a server slow to exit can stay outside the sweep") },
                "\(result.notes)")
    }

    /// A failure shows the subjects that exited or wrote something; a silent server still
    /// running explains nothing. A second for `gone`'s exit to be reaped: 300 ms was too short
    /// once, beside a loaded build.
    @Test func aFailureShowsOnlySubjectsWithSomethingToSay() async throws {
        let result = try await ScenarioHarness.run("""
            spawn quiet "sleep 5"
            spawn chatty "sh -c 'echo hello from chatty; sleep 5'" ready when stdout /hello/
            spawn gone "true"
            set deadline 1s
            sleep 2s
            """)
        result.expectFailure(line: 5, containing: "deadline")
        let shown = result.notes.filter { $0.hasPrefix("subject '") }
        #expect(shown.contains { $0.hasPrefix("subject 'chatty'") && $0.contains("hello from chatty") }, "\(shown)")
        #expect(shown.contains { $0.hasPrefix("subject 'gone'") && $0.contains("exit code 0") }, "\(shown)")
        #expect(!shown.contains { $0.hasPrefix("subject 'quiet'") }, "\(shown)")
    }

    @Test(.heavy) func parallelThousandCopiesAllPassWithPercentiles() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            set timeout 20s
            parallel 1000 {
              connect 127.0.0.1:{port}
              send line "hello {copy}"
              expect line "hello {copy}"
            }
            """, against: peer)
        result.expectPassed()
        let summary = try #require(result.parallel.first)
        #expect(summary.copies == 1000 && summary.passed == 1000)
        #expect(summary.expects == 1000)
        let p50 = try #require(summary.p50), p99 = try #require(summary.p99), max = try #require(summary.max)
        #expect(p50 <= p99 && p99 <= max)
    }

    @Test func aNestedBlocksExpectsCountInTheBlockAroundIt() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            set timeout 10s
            parallel 2 {
              connect 127.0.0.1:{port}
              send line "outer"
              expect line "outer"
              parallel 3 {
                connect 127.0.0.1:{port}
                send line "inner"
                expect line "inner"
              }
            }
            """, against: peer)
        result.expectPassed()
        let summary = try #require(result.parallel.first)
        #expect(summary.expects == 2 + 2 * 3, "\(summary.description)")
    }

    @Test func aFailingCopyFailsTheScenarioAndIsNamed() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            parallel 4 {
              connect c 127.0.0.1:{port}
              send line "{copy}"
              expect line "1"
            }
            """, against: peer)
        result.expectFailure(line: 4, containing: "of parallel 4 (test.scn:1) failed; 1 of 4 copies passed, 3 failed")
        #expect(result.failure?.connection?.hasSuffix("of copy 0") == true)
    }
}
