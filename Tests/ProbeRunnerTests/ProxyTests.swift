import Foundation
import ProbeResults
import TestSupport
import Testing

/// The proxy between linechat's server and a client (the probe's own connection, or linechat's
/// client): forwarding both ways, the watch, and each fault measured where it lands. Timed:
/// the delays and the rate are measured against the clock.
@Suite(.serialized, .timed) struct ProxyTests {
    /// linechat's server behind proxy `p`, with the probe's connection `c` through it.
    static let chat = """
        var port = free-port
        set timeout 2s
        spawn server "linechat serve --port {port}" ready on 127.0.0.1:{port} within 10s
        proxy p 127.0.0.1:0 to 127.0.0.1:{port}
        connect c 127.0.0.1:{p.port}
        c: send line "iam:Luke"
        c: expect line "Luke has joined"

        """

    /// The probe's listener `l` behind proxy `p`: `c` connects through it and `s` is the server side.
    static let sink = """
        set timeout 2s
        listen l 127.0.0.1:0
        proxy p 127.0.0.1:0 to 127.0.0.1:{l.port}
        connect c 127.0.0.1:{p.port}
        accept s on l

        """

    /// The waits of the log's expects that got `line`, in order.
    private func waits(_ result: ScenarioResult, for line: String) -> [Double] {
        result.log.compactMap { entry -> Double? in
            guard entry.message.contains("got line \"\(line)\" after ") else { return nil }
            let text = entry.message.components(separatedBy: " after ").last ?? ""
            if text.hasSuffix("ms") { return Double(text.dropLast(2)) }
            if text.hasSuffix("us") { return Double(text.dropLast(2)).map { $0 / 1000 } }
            if text.hasSuffix("s") { return Double(text.dropLast(1)).map { $0 * 1000 } }
            return nil
        }
    }

    @Test func itForwardsBothWaysAndTheWatchSeesWithoutTaking() async throws {
        let result = try await ScenarioHarness.run(Self.chat + """
            p: expect upstream line "iam:Luke"
            p: expect downstream line "Luke has joined"
            connect d 127.0.0.1:{p.port}
            d: send line "iam:Leia"
            d: expect line "Leia has joined"
            c: expect line "Leia has joined"
            p.2: expect upstream line "iam:Leia"
            p.1: expect downstream line "Leia has joined"
            p: expect downstream line "Leia has joined"
            p.3: expect upstream any within 100ms
            """)
        result.expectFailure(line: 17, containing: "proxy 'p' has no connection 3 (2 connections open after 100ms)")
        let log = result.log.map(\.message)
        #expect(log.contains { $0.contains("proxy 'p' connection 2 upstream: got line \"iam:Leia\"") }, "\(log)")
        let unnamed = try await ScenarioHarness.run(Self.chat + "delay 10ms")
        unnamed.expectFailure(line: 8, containing: "'delay' acts on a proxy: name it, as in 'p: delay …'")
    }

    /// Round trips through the proxy, each the best of five: a delay both ways adds twice its
    /// length, upstream only once. Over real sockets a busy machine only adds to a round trip,
    /// so the check is a floor and a loose ceiling; ProxyPumpTests pins each delay exactly on
    /// virtual time.
    @Test func delaysAddTheirLengthToTheRoundTrip() async throws {
        let pings = String(repeating: "c: send line \"ping\"\nc: expect line \"pong\"\n", count: 5)
        let result = try await ScenarioHarness.run(Self.chat + pings + "p: delay 50ms\n" + pings + "p: clear\np: delay 100ms upstream\n" + pings)
        result.expectPassed()
        let all = waits(result, for: "pong")
        try #require(all.count == 15, "\(all)")
        let (plain, both, upstream) = (all[0..<5].min()!, all[5..<10].min()!, all[10..<15].min()!)
        #expect((95...250).contains(both - plain), "delay 50ms both ways: \(plain) ms → \(both) ms")
        #expect((95...250).contains(upstream - plain), "delay 100ms upstream: \(plain) ms → \(upstream) ms")
    }

    /// 32 KiB at 16 KiB/s take 2 s (the first piece goes at once: 2 s less a twentieth); a
    /// busy machine may only add to it (ProxyPumpTests pins the pacing on virtual time).
    @Test func aRateHolds() async throws {
        let result = try await ScenarioHarness.run(Self.sink + """
            p: rate 16KiB/s downstream
            s: send random 32KiB
            c: expect bytes 32KiB within 5s
            """)
        result.expectPassed()
        let entry = try #require(result.log.first { $0.message.contains("got 32768 bytes") }?.message)
        let seconds = try #require(Double(entry.components(separatedBy: " after ").last!.dropLast(1)), "\(entry)")
        #expect(seconds >= 1.95 * 0.95 && seconds <= 4, "32 KiB at 16 KiB/s: \(entry)")
    }

    /// `slice 1..1 upstream`: the server reads a byte at a time, so a server that drops what
    /// follows the last terminator of a read never sees a whole line.
    @Test func slicesCatchAServerThatDropsPartialLines() async throws {
        let sliced = Self.chat.replacingOccurrences(of: "linechat serve --port {port}", with: "linechat serve --port {port} --fault no-partial-buffering")
            .replacingOccurrences(of: "c: send line \"iam:Luke\"\nc: expect line \"Luke has joined\"\n", with: "p: slice 1..1 upstream\n")
        let faulty = try await ScenarioHarness.run(sliced + "c: send line \"ping\"\nc: expect line \"pong\"")
        faulty.expectFailure(line: 8, containing: "received line: \"ERR unknown command\"")
        let fine = try await ScenarioHarness.run(Self.chat + "p: slice 1..1 upstream\nc: send line \"ping\"\nc: expect line \"pong\"")
        fine.expectPassed()
    }

    /// What was held goes on, in order, once released.
    @Test func holdThenReleaseDeliversEverythingInOrder() async throws {
        let lines = 300
        var steps = "p: hold\n"
        for index in 0..<lines { steps += "c: send line \"line \(index) \(String(repeating: "x", count: 200))\"\n" }
        steps += "s: expect nothing for 200ms\np: release\n"
        for index in 0..<lines { steps += "s: expect line \"line \(index) \(String(repeating: "x", count: 200))\"\n" }
        let result = try await ScenarioHarness.run(Self.sink + steps)
        result.expectPassed()
    }

    /// The watch reads messages under the scenario's framing; past its 1 MiB it drops the
    /// oldest bytes, and an expect that needed them says so.
    @Test func theWatchReadsMessagesAndSaysWhatItDropped() async throws {
        let result = try await ScenarioHarness.run(Self.sink + """
            set framing length 2
            c: send message "hello"
            s: expect message "hello"
            p: expect upstream message "hello"
            c: send random 1100KiB
            s: expect bytes 1100KiB within 5s
            p: expect upstream bytes 1100KiB within 200ms
            """)
        result.expectFailure(line: 12, containing: "(the watch dropped the oldest 77824 bytes no expect had read: it keeps 1024 KiB a direction)")
    }

    /// `cut after 100 bytes downstream`: the client gets exactly 100 bytes, then FIN.
    @Test func cutAfterClosesAtTheByte() async throws {
        let result = try await ScenarioHarness.run(Self.sink + """
            p: cut after 100 bytes downstream
            s: send "\(String(repeating: "0123456789", count: 30))"
            c: expect bytes 100 = "\(String(repeating: "0123456789", count: 10))"
            c: expect eof
            s: expect eof
            """)
        result.expectPassed()
    }

    /// `cut after 10 bytes upstream`: the server gets exactly 10 bytes, then FIN, and the
    /// client's leg is cut too.
    @Test func cutAfterUpstreamClosesAtTheByteToo() async throws {
        let result = try await ScenarioHarness.run(Self.sink + """
            p: cut after 10 bytes upstream
            c: send "0123456789abcdef"
            s: expect bytes 10 = "0123456789"
            s: expect eof
            c: expect eof
            """)
        result.expectPassed()
    }

    /// The count runs across pieces: 60 bytes, then 60 more, then 60, and the client gets the
    /// first 100 and the FIN; and a piece of exactly the bytes left closes at once, with no
    /// piece after it to wait for.
    @Test func cutAfterCountsAcrossPiecesAndClosesOnTheLastByte() async throws {
        let sixty = String(repeating: "0123456789", count: 6)
        let across = try await ScenarioHarness.run(Self.sink + """
            p: cut after 100 bytes downstream
            s: send "\(sixty)"
            c: expect bytes 60
            s: send "\(sixty)"
            c: expect bytes 40 = "0123456789012345678901234567890123456789"
            c: expect eof
            """)
        across.expectPassed()
        let exact = try await ScenarioHarness.run(Self.sink + """
            p: cut after 60 bytes downstream
            s: send "\(sixty)"
            c: expect bytes 60
            c: expect eof within 1s
            """)
        exact.expectPassed()
    }

    /// TLS and WebSocket pass through as bytes, sliced: the handshake, the upgrade and the
    /// frames, which the watch sees as they are on the wire.
    @Test func tlsAndWebSocketPassThrough() async throws {
        let tls = try await ScenarioHarness.run("""
            set timeout 2s
            listen l 127.0.0.1:0 tls
            proxy p 127.0.0.1:0 to 127.0.0.1:{l.port}
            p: slice 1..64 every 0
            connect c 127.0.0.1:{p.port} tls ca "{l.cert}"
            accept s on l
            c: send line "over TLS"
            s: expect line "over TLS"
            p: expect upstream bytes 1 = hex"16"
            """)
        tls.expectPassed()
        let webSocket = try await ScenarioHarness.run("""
            var port = free-port
            set timeout 2s
            spawn server "linechat serve --websocket --port {port}" ready on 127.0.0.1:{port} within 10s
            proxy p 127.0.0.1:0 to 127.0.0.1:{port}
            p: slice 1..3 every 0
            connect c ws://127.0.0.1:{p.port}/chat
            c: send text "ping"
            c: expect text "pong"
            p: expect downstream until "\\r\\n\\r\\n" max 1KiB
            p: expect downstream bytes 6 = hex"81 04 70 6f 6e 67"
            """)
        webSocket.expectPassed()
    }

    /// `cut` and `reset` with a direction close the leg that direction writes to, and the other
    /// leg with FIN: `reset upstream` resets the server's leg, `reset downstream` the client's.
    /// After `reset upstream` the watch still sees what the client sends.
    @Test(arguments: [("cut upstream", "eof", "eof"), ("cut downstream", "eof", "eof"),
                      ("reset upstream", "reset", "eof"), ("reset downstream", "eof", "reset")])
    func aDirectedCutOrResetClosesTheLegItWritesTo(fault: String, server: String, client: String) async throws {
        let result = try await ScenarioHarness.run(Self.sink + """
            c: send line "a"
            s: expect line "a"
            p: \(fault)
            s: expect \(server)
            c: expect \(client)
            """)
        result.expectPassed()
        let watched = try await ScenarioHarness.run(Self.sink + """
            p: reset upstream
            s: expect reset
            c: send line "after the reset"
            p: expect upstream line "after the reset"
            """)
        watched.expectPassed()
    }

    /// A reset that stops a direction with a full queue (256 KiB held back by a delay) empties
    /// the queue's count too, so the pump reads its source again and the watch sees what the
    /// client sends after the reset.
    @Test func theWatchReadsOnAfterAResetThatDroppedAFullQueue() async throws {
        let result = try await ScenarioHarness.run(Self.sink + """
            p: delay 10s upstream
            c: send random 320KiB
            p: expect upstream bytes 262144
            p: reset upstream
            s: expect reset
            c: send line "after the reset"
            p: expect upstream until "after the reset\\r\\n" max 1MiB
            """)
        result.expectPassed()
    }

    /// A delayed direction stops reading its source once 256 KiB wait in its queue: the rest of
    /// the client's megabyte stays in TCP's buffers, not in the proxy's memory, and the watch
    /// sees no more than the pump read.
    @Test(arguments: [("upstream", "c"), ("downstream", "s")])
    func aDelayedDirectionStopsReadingAtItsHighWaterMark(direction: String, sender: String) async throws {
        let result = try await ScenarioHarness.run(Self.sink + """
            p: delay 10s \(direction)
            \(sender): send random 1MiB
            p: expect \(direction) bytes 262144
            p: expect \(direction) bytes 524288 within 500ms
            """)
        result.expectFailure(line: 9, containing: "timed out after 500ms")
    }

    /// Either side's half-close passes as a FIN, and the other direction goes on.
    @Test(arguments: [("s", "c"), ("c", "s")])
    func aHalfCloseLeavesTheOtherDirectionOpen(closing: String, other: String) async throws {
        let result = try await ScenarioHarness.run(Self.sink + """
            \(closing): shutdown write
            \(other): expect eof
            \(other): send line "still here"
            \(closing): expect line "still here"
            """)
        result.expectPassed()
    }

    /// A direction whose target stops taking writes (its reader reads nothing for a second, and
    /// the sockets between fill) stops reading its source, and reads on once the target drains:
    /// 16 MiB at full speed arrive whole, client to server and server to client.
    @Test func aDirectionReadsOnOnceItsTargetDrains() async throws {
        let peer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers/bulk_peer.py").path
        let opening = """
            set timeout 10s
            listen l 127.0.0.1:0
            proxy p 127.0.0.1:0 to 127.0.0.1:{l.port}

            """
        let upstream = try await ScenarioHarness.run(opening + """
            spawn sender "python3 \(peer) send 127.0.0.1 {p.port} 16777216"
            accept s on l
            sleep 1s
            s: expect bytes 16777216
            s: expect eof
            expect stdout sender line "sent 16777216"
            """)
        upstream.expectPassed()
        let downstream = try await ScenarioHarness.run(opening + """
            spawn receiver "python3 \(peer) receive 127.0.0.1 {p.port}"
            accept s on l
            s: send random 16MiB
            s: close
            expect stdout receiver line "received 16777216"
            """)
        downstream.expectPassed()
    }

    /// A fault set before a client connects applies to its link in the direction it names,
    /// and only there.
    @Test(arguments: [("downstream", "c", "s"), ("upstream", "s", "c")])
    func aFaultSetBeforeALinkTakesItsDirection(direction: String, cutSide: String, otherSide: String) async throws {
        let result = try await ScenarioHarness.run("""
            set timeout 2s
            listen l 127.0.0.1:0
            proxy p 127.0.0.1:0 to 127.0.0.1:{l.port}
            p: cut after 3 bytes \(direction)
            connect c 127.0.0.1:{p.port}
            accept s on l
            \(cutSide): send "abcdef"
            \(otherSide): expect bytes 6 = "abcdef"
            \(otherSide): send "123456"
            \(cutSide): expect bytes 3 = "123"
            \(cutSide): expect eof
            """)
        result.expectPassed()
        // A cut stands: a client that connects after it is cut at once.
        let standing = try await ScenarioHarness.run("""
            set timeout 2s
            listen l 127.0.0.1:0
            proxy p 127.0.0.1:0 to 127.0.0.1:{l.port}
            p: cut
            connect c 127.0.0.1:{p.port}
            c: expect eof
            """)
        standing.expectPassed()
    }

    /// A client's RST reaches the server as an RST, and a server's the client.
    @Test func aPeersResetPassesThroughAsAReset() async throws {
        for (resetting, other) in [("c", "s"), ("s", "c")] {
            let result = try await ScenarioHarness.run(Self.sink + """
                c: send line "a"
                s: expect line "a"
                \(resetting): abort
                \(other): expect reset
                """)
            result.expectPassed()
        }
    }

    /// linechat's client through the proxy: a cut is a FIN it leaves on (exit 0), a reset an
    /// error it reports (exit 1).
    @Test func theClientSeesACutAsFINAndAResetAsRST() async throws {
        let opening = Self.sink + """
            spawn client "linechat connect 127.0.0.1:{p.port} --name Han" with stdin
            accept t on l
            t: expect line "iam:Han"
            t: send line "welcome"
            expect stdout client line "welcome"

            """
        let cut = try await ScenarioHarness.run(opening + "p: cut\nt: expect eof\nexpect exit client code 0")
        cut.expectPassed()
        let reset = try await ScenarioHarness.run(opening + "p: reset\nt: expect reset\nexpect stderr client line /reset/\nexpect exit client code 1")
        reset.expectPassed()
    }
}
