import Foundation
import NIOCore
import ProbeRunner
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `connect` in all its forms, closing, and the steps that pick a connection.
@Suite struct ConnectionTests {
    @Test func ipv4IPv6AndHostNames() async throws {
        let v4 = try await TestPeer.start(.echo)
        defer { Task { await v4.stop() } }
        try await ScenarioHarness.run("connect localhost:{port}\nsend line \"a\"\nexpect line \"a\"", against: v4).expectPassed()
        guard let v6 = try? await TestPeer.start(.echo, host: "::1") else {
            Issue.record("this machine has no IPv6 loopback")
            return
        }
        defer { Task { await v6.stop() } }
        try await ScenarioHarness.run("connect b [::1]:{port} rcvbuf 4KiB sndbuf 4KiB\nsend line \"a\"\nexpect line \"a\"", against: v6).expectPassed()
    }

    @Test func refusedIsAFailureUnlessExpected() async throws {
        let port = try LoopbackSocket.closedPort()
        try await ScenarioHarness.run("connect 127.0.0.1:{port} expect refused", variables: ["port": "\(port)"]).expectPassed()
        try await ScenarioHarness.run("connect 127.0.0.1:{port}", variables: ["port": "\(port)"])
            .expectFailure(line: 1, containing: "cannot connect to 127.0.0.1:\(port): refused")
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("connect 127.0.0.1:{port} expect refused", against: peer)
            .expectFailure(line: 1, containing: "to fail with refused, but it succeeded")
    }

    @Test func aFullBacklogMakesTheConnectTimeOut() async throws {
        // A listener that never accepts: once its accept queue is full, the kernel drops SYNs.
        let (listener, port) = try LoopbackSocket.bound(listening: true, backlog: 0)
        defer { close(listener) }
        let fillers = await LoopbackSocket.fillAcceptQueue(port: port, count: 4)
        defer { fillers.forEach { close($0) } }
        try await ScenarioHarness.run("connect 127.0.0.1:{port} timeout 300ms expect timeout", variables: ["port": "\(port)"]).expectPassed()
        try await ScenarioHarness.run("connect 127.0.0.1:{port} timeout 300ms", variables: ["port": "\(port)"])
            .expectFailure(line: 1, containing: "timeout")
    }

    @Test func closeSendsFinAbortSendsRst() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nsend \"x\"\nsleep 20ms\nclose\nsleep 50ms", against: peer).expectPassed()
        try await peer.log.waitForEnd()
        #expect(peer.log.ends == ["eof"])
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nabort\nsleep 50ms", against: peer).expectPassed()
        // Under a busy test run the peer may log the RST after the scenario has ended.
        try await peer.log.waitForEnd(count: 2)
        #expect(peer.log.ends == ["eof", "reset"])
    }

    @Test func shutdownWriteHalfClosesAndKeepsReading() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send "last words"
            shutdown write
            expect "last words"
            expect eof
            """, against: peer).expectPassed()
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nshutdown write\nsend \"x\"", against: peer)
            .expectFailure(line: 3, containing: "has shut down writing")
    }

    @Test func useAndPrefixesPickTheConnection() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("""
            connect a 127.0.0.1:{port}
            connect b 127.0.0.1:{port}
            a: send line "to a"
            send line "to b"
            use a
            expect line "to a"
            b: expect line "to b"
            """, against: peer).expectPassed()
        try await ScenarioHarness.run("connect a 127.0.0.1:{port}\nc: send line \"x\"", against: peer)
            .expectFailure(line: 2, containing: "no connection named 'c' (open: a)")
        // `a.2:` numbers a proxy's connections: on a connection named `a` it names none.
        try await ScenarioHarness.run("connect a 127.0.0.1:{port}\na.2: send line \"x\"", against: peer)
            .expectFailure(line: 2, containing: "no connection named 'a.2' (open: a)")
        try await ScenarioHarness.run("use c", against: peer).expectFailure(line: 1, containing: "no connection named 'c'")
        try await ScenarioHarness.run("connect a 127.0.0.1:{port}\nclose\nexpect eof", against: peer)
            .expectFailure(line: 3, containing: "was closed by the probe at test.scn:2")
        try await ScenarioHarness.run("send line \"x\"").expectFailure(line: 1, containing: "no connection to act on")
    }

    @Test func sendFileRandomAndRepeat() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("from a file".utf8).write(to: directory.appendingPathComponent("request.bin"))
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let text = """
            connect 127.0.0.1:{port}
            send file "request.bin"
            repeat 3 { send "{i}" }
            send random 1KiB
            sleep 50ms
            """
        let first = try await ScenarioHarness.run(text, variables: ["port": "\(peer.port)"], path: directory.path + "/s.scn", seed: 7)
        first.expectPassed()
        #expect(first.notes.contains("random seed 7 (rerun with --seed 7)"))
        try await peer.log.waitForEnd()
        let firstBytes = peer.log.received
        #expect(firstBytes.prefix(14) == ArraySlice("from a file012".utf8))
        #expect(firstBytes.count == 14 + 1024)
        try await ScenarioHarness.run(text, variables: ["port": "\(peer.port)"], path: directory.path + "/s.scn", seed: 7).expectPassed()
        try await peer.log.waitForEnd(count: 2)
        #expect(Array(peer.log.received.suffix(1024)) == Array(firstBytes.suffix(1024)), "the same seed sends the same bytes")
    }

    @Test(.heavy) func aLargeFileIsSentWholeHoweverItIsCut() async throws {
        // Over 1 MiB, a file is read a write at a time instead of whole: every byte still
        // arrives in order, sent as it is or in chunks that straddle the reads.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SystemRandomNumberGenerator()
        let contents = (0..<(2_500 * 1024 + 7)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(contents).write(to: directory.appendingPathComponent("big.bin"))
        for form in ["send file \"big.bin\"", "send file \"big.bin\" in chunks of 300000"] {
            let peer = try await TestPeer.start(.silent)
            defer { Task { await peer.stop() } }
            try await ScenarioHarness.run("connect 127.0.0.1:{port}\n\(form)", variables: ["port": "\(peer.port)"],
                                          path: directory.path + "/s.scn").expectPassed()
            try await peer.log.waitForEnd()
            let difference = firstDifference(peer.log.received, contents)
            #expect(difference == nil, "\(form): \(difference ?? "")")
        }
    }

    @Test func aFileThatShrinksDuringTheSendFailsAndSaysSo() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("big.bin")
        try Data(count: 8 * 1024 * 1024).write(to: file)
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        // 8 MiB at 4 MiB/s takes 2 s; the file is cut to 1 MiB once the peer has some of it (cut
        // before the send opened it, it would just be a 1 MiB file).
        // On a thread of its own: a busy parallel test run can hold up a task for the whole send.
        let shrunk = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Eventually.holdsBlocking(within: .seconds(5), every: .milliseconds(1)) { !peer.log.received.isEmpty }
            try? FileHandle(forWritingTo: file).truncate(atOffset: 1024 * 1024)
            shrunk.signal()
        }
        let result = try await ScenarioHarness.run("set timeout 10s\nconnect 127.0.0.1:{port}\nsend file \"big.bin\" at 4MiB/s",
                                                   variables: ["port": "\(peer.port)"], path: directory.path + "/s.scn")
        shrunk.wait()
        #expect(result.failure?.kind == .environment)
        // Where it ended depends on how far the send had got when the file was cut.
        result.expectFailure(line: 3, containing: "big.bin: it ended at ")
        result.expectFailure(line: 3, containing: " of 8388608 bytes (did it shrink?)")
    }

    @Test func randomBytesAreOneStreamHoweverTheSendIsCutIntoWrites() async throws {
        // 2500 KiB goes out as three writes of at most 1 MiB, or as 2560 writes of 1000 bytes
        // (not a multiple of the generator's 8-byte words): the same seed gives the same bytes.
        var received: [[UInt8]] = []
        for form in ["send random 2500KiB", "send random 2500KiB in chunks of 1000"] {
            let peer = try await TestPeer.start(.silent)
            defer { Task { await peer.stop() } }
            try await ScenarioHarness.run("connect 127.0.0.1:{port}\n\(form)", against: peer).expectPassed()
            try await peer.log.waitForEnd()
            received.append(peer.log.received)
        }
        #expect(received[0].count == 2500 * 1024)
        let difference = firstDifference(received[1], received[0])
        #expect(difference == nil, "\(difference ?? "")")
        #expect(Set(received[0].prefix(4096)).count > 200, "the bytes look random")
    }

    @Test func varDefaultsFreePortsAndOverrides() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("""
            var port = 1
            var spare = free-port
            var word = "a{port}"
            connect 127.0.0.1:{port}
            send line "{word}"
            expect line "a{port}"
            connect 127.0.0.1:{spare} expect refused
            """, against: peer).expectPassed()
    }
}

