import Foundation
import ProbeHost
import ProbeRunner
import TestSupport
import Testing

/// Every form of `expect`, passing and failing, against in-process peers.
@Suite struct ExpectTests {
    /// An HTTP-like reply read as users read one: skip to Content-Length, take the headers'
    /// end by regex, then exactly that many bytes of body.
    @Test func eventuallyAndUntilARegexReadAnHTTPReply() async throws {
        let reply = "HTTP/1.1 200 OK\r\nServer: t\r\nContent-Length: 12\r\nConnection: close\r\n\r\nhello world!"
        let peer = try await TestPeer.start(.finAfter(Array(reply.utf8)))
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            expect eventually line /^content-length: (?<len>\\d+)$/i max 4KiB
            expect until /(?<last>[A-Za-z]+)\\r\\n\\r\\n/ max 8KiB
            expect bytes {len} = "hello world!"
            expect eof
            """, against: peer)
        result.expectPassed()
        let messages = result.log.map(\.message)
        #expect(messages.contains { $0.contains("after skipping 2 lines (28 bytes)") && $0.contains("{len}=\"12\"") }, "\(messages)")
        #expect(messages.contains { $0.contains("{last}=\"close\"") }, "\(messages)")

        let missing = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            expect eventually line /^ETag: / max 32
            """, against: peer)
        missing.expectFailure(line: 2, containing: "skipped 3 lines (48 bytes, over max 32) and none was a line matching /^ETag: /")
    }

    /// A real HTTP server's reply, as a newcomer reads one: the status line, skip to
    /// Content-Length, the headers' end by regex, then exactly that body; and a header that
    /// never comes fails at max.
    @Test(.nginx) func eventuallyFindsNginxsContentLength() async throws {
        let nginx = try #require(Requirement.nginx.path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-nginx-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let port = try #require(FreePort.pick())
        try NginxSite.write(in: directory, port: port)
        let request = """
            \(NginxSite.spawn(nginx))
            connect 127.0.0.1:{port}
            send "GET /hello.txt HTTP/1.1\\r\\nHost: probe\\r\\n\\r\\n"
            expect line "HTTP/1.1 200 OK"

            """
        let variables = ["dir": directory, "port": String(port)]
        let result = try await ScenarioHarness.run(request + """
            expect eventually line /^content-length: (?<len>\\d+)$/i max 4KiB
            expect until /\\r\\n\\r\\n/ max 8KiB
            expect bytes {len} = "hello from nginx\\n"
            """, variables: variables)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("{len}=\"17\"") }, "\(result.log.map(\.message))")
        let missing = try await ScenarioHarness.run(request + "expect eventually line /^X-Never: / max 64", variables: variables)
        missing.expectFailure(line: 5, containing: "over max 64) and none was a line matching /^X-Never: /")
    }

    /// `??` in an expected hex string takes any one byte (MQTT's CONNACK and a PUBACK whose
    /// packet id the broker chose), in `expect hex`, `expect bytes N =` and `expect message`;
    /// a byte that differs elsewhere fails, shown in hex with a caret under it.
    @Test func anyByteInExpectedHexTakesAnyByte() async throws {
        let peer = try await TestPeer.start(.finAfter([0x20, 0x02, 0x00, 0x00, 0x40, 0x02, 0x00, 0x81, 0x03, 0x01, 0x77, 0x02]))
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            expect hex"20 02 00 ??"
            expect bytes 4 = hex"40 02 ?? ??"
            set framing length 1
            expect message hex"01 ?? 02"
            expect eof
            """, against: peer)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains(#"got bytes hex"40 02 00 81""#) }, "the log shows the bytes received: \(result.log.map(\.message))")
        let wrong = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            expect hex"20 03 ?? 00"
            """, against: peer)
        wrong.expectFailure(line: 2, containing: """
            expected: hex"20 03 ?? 00"
            received: hex"20 02 00 00"
                             ^ first difference at byte 1
            """)
    }

    /// `expect until` a delimiter of variables that is empty at run time fails at once, saying
    /// so, rather than waiting for `max` bytes to say that no "" came.
    @Test func anEmptyDelimiterOfVariablesFailsAtOnce() async throws {
        let peer = try await TestPeer.start(.finAfter(Array("abc\r\n".utf8)))
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            var end = ""
            connect 127.0.0.1:{port}
            expect until "{end}" max 0
            """, against: peer)
        result.expectFailure(line: 3, containing: "the delimiter is empty once its variables are filled in")
    }

    /// A regex that backtracks over a long window or line (here from every start of 3,000 bytes
    /// with no space: most of a second, which the search thread finishes after the test) runs
    /// away from the event loop: the step's timeout fires on time and says the regex was still
    /// searching. Held on the loop, it failed only when the search was done.
    @Test func aRegexStillSearchingALongWindowTimesOutAndSaysSo() async throws {
        let peer = try await TestPeer.start(.finAfter([UInt8](repeating: UInt8(ascii: "a"), count: 3000)))
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            expect until /(?<name>[^ ]+) (?<size>\\d+)\\r\\n/ max 1MiB within 200ms
            """, against: peer)
        result.expectFailure(line: 2, containing: "; the regex was still searching the first")

        let line = try await TestPeer.start(.finAfter([UInt8](repeating: UInt8(ascii: "a"), count: 3000) + [13, 10]))
        defer { Task { await line.stop() } }
        let judged = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            expect line /(?<name>[^ ]+) (?<size>\\d+)/ within 200ms
            """, against: line)
        judged.expectFailure(line: 2, containing: "; the regex was still searching a line of 3000 bytes")
    }

    /// A regex over a line longer than the inline limit is searched on a search thread, which
    /// wakes the expect when it is done: on any expect of a connection, not only its first.
    @Test(.timed) func aSearchOnAThreadDecidesALaterExpectWhenItIsDone() async throws {
        let peer = try await TestPeer.start(.finAfter(Array("x".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 300) + Array(" 42\r\n".utf8)))
        defer { Task { await peer.stop() } }
        let started = ContinuousClock.now
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            expect bytes 1
            expect line /(?<n>\\d+)$/ within 3s
            """, against: peer)
        result.expectPassed()
        #expect(ContinuousClock.now - started < .seconds(2), "the search's end decided the expect, not its timeout")
        #expect(result.log.contains { $0.message.contains("{n}=\"42\"") }, "\(result.log.map(\.message))")
    }

    @Test func linesBytesAndDelimitersFromAnEchoPeer() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            set timeout 2s
            connect 127.0.0.1:{port}
            send line "hello"
            expect line "hello"
            send line "Luke: hi there"
            expect line /^(?<who>\\w+): (?<text>.*)$/
            send line "{who} said {text}"
            expect line "Luke said hi there"
            send line "the cat sat"
            expect line contains "cat"
            send line "whatever"
            expect line any
            send "b\\r\\na\\r\\nc\\r\\n"
            expect lines unordered "a", "b", "c"
            send "+PONG\\r\\n"
            expect "+PONG\\r\\n"
            send hex"de ad be ef"
            expect bytes 2
            expect bytes 2 = hex"beef"
            send "GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nrest"
            expect until "\\r\\n\\r\\n" max 1KiB
            expect any
            expect nothing for 50ms
            """, against: peer)
        result.expectPassed()
    }

    /// A reply that no expect reads is never lost without a word: a note by default, a
    /// failure with `set unread fail`, nothing with `set unread ignore`.
    @Test func unreadBytesAreNamedFailedOrIgnoredAsSetUnreadSays() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let steps = """
            connect 127.0.0.1:{port}
            send "PING\\r\\nFOO\\r\\n"
            expect line "PING"
            sleep 50ms
            """
        let noted = try await ScenarioHarness.run(steps, against: peer)
        noted.expectPassed()
        #expect(noted.notes.contains("connection #1 had 5 unread bytes when the scenario ended: \"FOO\\r\\n\" (no expect read them; `set unread fail` makes this a failure)"),
                "\(noted.notes)")
        let failed = try await ScenarioHarness.run("set unread fail\n" + steps, against: peer)
        failed.expectFailure(line: 5, containing: "connection #1 had 5 unread bytes when the scenario ended: \"FOO\\r\\n\" (set unread fail)")
        let ignored = try await ScenarioHarness.run("set unread ignore\n" + steps, against: peer)
        ignored.expectPassed()
        #expect(!ignored.notes.contains { $0.contains("unread") }, "\(ignored.notes)")
        let closed = try await ScenarioHarness.run("set unread fail\n" + steps + "\nclose\nsleep 10ms", against: peer)
        closed.expectFailure(line: 6, containing: "had 5 unread bytes when it was closed")
        let allRead = try await ScenarioHarness.run("set unread fail\n" + steps + "\nexpect line \"FOO\"", against: peer)
        allRead.expectPassed()
        // Copies keep no notes of their own: the block names what they left, once.
        let copies = try await ScenarioHarness.run("parallel 3 {\n" + steps + "\n}", against: peer)
        copies.expectPassed()
        #expect(copies.notes.contains("test.scn:1 parallel 3: 3 of 3 copies left 5 bytes unread (the first: \"FOO\\r\\n\") (no expect read them; `set unread fail` makes this a failure)"),
                "\(copies.notes)")
    }

    /// nats-server answers a publish to an invalid subject with -ERR and a PING with PONG:
    /// `expect eventually line "PONG"` skipped the error and passed; with `unless /^-ERR/` it
    /// fails on it, naming the line.
    @Test(.natsServer) func natsServersErrorIsNotSkippedOverWithUnless() async throws {
        let steps = #"""
            set timeout 3s
            var port = free-port
            spawn nats "nats-server -a 127.0.0.1 -p {port}" ready on 127.0.0.1:{port} within 10s
            connect 127.0.0.1:{port}
            expect line /^INFO /
            send line "CONNECT \{\"verbose\":false\}"
            send line "PUB foo.. 2"
            send line "hi"
            send line "PING"
            expect eventually line "PONG"
            """#
        let skipping = try await ScenarioHarness.run(steps)
        skipping.expectPassed()
        // The server answers the bad publish with one -ERR, or with one for the subject and one
        // for its payload, as the payload's line reaches it before or after the subject's.
        #expect(skipping.log.contains { $0.message.contains("got line \"PONG\" after skipping ") && $0.message.contains(": \"-ERR 'Invalid Publish Subject'\"") },
                "\(skipping.log.map(\.message))")
        let strict = try await ScenarioHarness.run(steps + " unless /^-ERR/")
        strict.expectFailure(line: 10, containing: "a line matched unless /^-ERR/ while line \"PONG\" was awaited: \"-ERR 'Invalid Publish Subject'\"")
    }

    /// `expect eventually … unless /RE/`: the line the expect awaits is taken even when it also
    /// matches the unless regex; only a line it would skip fails the step. Over several lines:
    /// (lines the peer sends, passes?).
    @Test(arguments: [(["ok ERR"], true), (["noise", "ok ERR"], true), (["ERR", "ok"], false),
                      (["noise", "ERR here", "ok"], false), (["noise", "other", "ok"], true)])
    func unlessFailsOnlyOnALineItWouldSkip(_ lines: [String], _ passes: Bool) async throws {
        let result = try await ScenarioHarness.run(MessageFramingTests.pair + lines.map { "s: send line \"\($0)\"\n" }.joined()
                                                   + "c: expect eventually line /^ok/ unless /ERR/\n")
        if passes {
            result.expectPassed()
        } else {
            result.expectFailure(line: 5 + lines.count, containing: "a line matched unless /ERR/ while a line matching /^ok/ was awaited: \"ERR")
        }
    }

    /// A peer that answers and then leaves, by RST or FIN, still leaves its answer unread: under
    /// `set unread fail` the scenario fails naming it.
    @Test func unreadBytesOfAPeerThatLeftAreNamed() async throws {
        for behaviour in [PeerBehaviour.answerThenReset(Array("ERR busy\r\n".utf8)), .finAfter(Array("ERR busy\r\n".utf8))] {
            let peer = try await TestPeer.start(behaviour)
            defer { Task { await peer.stop() } }
            let result = try await ScenarioHarness.run("set unread fail\nconnect 127.0.0.1:{port}\nsleep 200ms\n", against: peer)
            result.expectFailure(line: 3, containing: "connection #1 had 10 unread bytes when the scenario ended: \"ERR busy\\r\\n\" (set unread fail)")
        }
    }

    @Test func aLineTimeoutNamesTheBareLFThatArrived() async throws {
        let quiet = try await TestPeer.start(.dribble(Array("+OK\n".utf8), interval: .milliseconds(1)))
        defer { Task { await quiet.stop() } }
        let timedOut = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            expect line "+OK" within 200ms
            """, against: quiet)
        timedOut.expectFailure(line: 2, containing: "timed out after 200ms", "received a line ending in a bare LF at offset 3; the terminator is CRLF")
        let closing = try await TestPeer.start(.finAfter(Array("+OK\n".utf8)))
        defer { Task { await closing.stop() } }
        let closed = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            expect line "+OK" within 2s
            """, against: closing)
        closed.expectFailure(line: 2, containing: "in the middle of a line", "received a line ending in a bare LF at offset 3; the terminator is CRLF")
    }

    @Test func aWrongLineShowsBothAndMarksTheFirstDifference() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send line "Luke has joinde"
            expect line "Luke has joined"
            """, against: peer)
        result.expectFailure(line: 3, containing: "first difference at byte 13")
        let failure = try #require(result.failure)
        #expect(failure.message.contains(#"expected line: "Luke has joined""#))
        #expect(failure.message.contains(#"received line: "Luke has joinde""#))
        #expect(failure.recentBytes == Array("Luke has joinde\r\n".utf8))
        #expect(failure.connection == "connection #1")
    }

    @Test func wrongExactBytesFailAsSoonAsTheyDifferNotAtTheTimeout() async throws {
        let peer = try await TestPeer.start(.finAfter(Array("-ERR\r\n".utf8)))
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            expect "+PONG\\r\\n" within 5s
            """, against: peer)
        result.expectFailure(line: 2, containing: "first difference at byte 0")
        #expect(try #require(result.failure?.waited) < .seconds(1))
    }

    @Test func regexMismatchAndUnorderedStrangerFail() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let regex = try await ScenarioHarness.run("connect 127.0.0.1:{port}\nsend line \"pong\"\nexpect line /^ping$/", against: peer)
        regex.expectFailure(line: 3, containing: "expected a line matching /^ping$/")
        let unordered = try await ScenarioHarness.run("connect 127.0.0.1:{port}\nsend line \"x\"\nexpect lines unordered \"a\", \"b\"", against: peer)
        unordered.expectFailure(line: 3, containing: #"received line "x", which is none of the lines still expected: "a", "b""#)
    }

    @Test func untilFailsPastItsMaximum() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await ScenarioHarness.run("""
            connect 127.0.0.1:{port}
            send "0123456789abcdef"
            expect until "\\r\\n" max 8
            """, against: peer)
        result.expectFailure(line: 3, containing: #"no "\r\n" within max 8 bytes"#)
    }

    @Test func finPassesEofAndCloseButFailsReset() async throws {
        let peer = try await TestPeer.start(.finAfter(Array("bye\r\n".utf8)))
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect line \"bye\"\nexpect eof", against: peer).expectPassed()
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect line \"bye\"\nexpect close", against: peer).expectPassed()
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect line \"bye\"\nexpect reset", against: peer)
            .expectFailure(line: 3, containing: "the peer closed the connection (FIN)")
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect eof", against: peer)
            .expectFailure(line: 2, containing: #"received "bye\r\n""#)
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect line \"bye\"\nexpect line \"more\"", against: peer)
            .expectFailure(line: 3, containing: "FIN")
    }

    @Test func rstPassesResetAndCloseButFailsEof() async throws {
        let peer = try await TestPeer.start(.resetAfter([]))
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect reset", against: peer).expectPassed()
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect close", against: peer).expectPassed()
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect eof", against: peer)
            .expectFailure(line: 2, containing: "the peer reset the connection (RST)")
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect nothing for 1s", against: peer)
            .expectFailure(line: 2, containing: "expected silence, but the peer reset the connection (RST)")
    }

    @Test func aDribblingPeerStillMakesALine() async throws {
        let peer = try await TestPeer.start(.dribble(Array("hello\r\n".utf8), interval: .milliseconds(10)))
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect line \"hello\" within 2s", against: peer).expectPassed()
    }

    @Test func silenceFailsWhenBytesArrive() async throws {
        let peer = try await TestPeer.start(.dribble(Array("x".utf8), interval: .milliseconds(20)))
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("connect 127.0.0.1:{port}\nexpect nothing for 2s", against: peer)
            .expectFailure(line: 2, containing: #"expected silence, received "x""#)
    }

    @Test func aCustomTerminatorAndMaxLine() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        try await ScenarioHarness.run("""
            set terminator "||"
            connect 127.0.0.1:{port}
            send line "a|b"
            send "c||"
            expect line "a|b"
            expect line "c"
            set terminator lf
            send line "d"
            expect "d\\n"
            set max-line 4
            send line "12345"
            expect line any
            """, against: peer).expectFailure(line: 12, containing: "within max-line 4 bytes")
    }
}

/// A variable's value is bytes: a regex group over binary input keeps the exact bytes it took,
/// and `{name}` writes them back unchanged, in strings and in hex; the log shows them as hex.
@Suite struct BinaryValueTests {
    @Test func aGroupOverBinaryBytesIsSentBackUnchanged() async throws {
        let result = try await ScenarioHarness.run(#"""
            set timeout 2s
            listen l 127.0.0.1:0
            connect c 127.0.0.1:{l.port}
            accept s on l
            s: send hex"90 03 ff fe 00"
            c: expect until /\x90\x03(?<pid>..)/ max 16
            c: send hex"40 02 {pid}"
            s: expect hex"40 02 ff fe"
            c: send "\x40\x02{pid}"
            s: expect hex"40 02 ff fe"
            c: expect bytes 1 = hex"00"
            s: send "id=\xff\x80\r\n"
            c: expect line /^id=(?<id>..)$/
            c: send hex"{id} {id}"
            s: expect hex"ff 80 ff 80"
            """#)
        result.expectPassed()
        let log = result.log.map(\.message)
        #expect(log.contains { $0.hasSuffix("→ {pid}=hex\"ff fe\"") }, "\(log)")
        #expect(log.contains { $0.hasSuffix("→ {id}=hex\"ff 80\"") }, "\(log)")
    }

    /// A named group captured twice: the later value wins, and `{name}` sends it.
    @Test func aGroupCapturedTwiceKeepsTheLaterValue() async throws {
        let result = try await ScenarioHarness.run("""
            set timeout 2s
            listen l 127.0.0.1:0
            connect c 127.0.0.1:{l.port}
            accept s on l
            s: send "id=first\\r\\nid=second\\r\\n"
            c: expect line /^id=(?<id>\\w+)$/
            c: expect line /^id=(?<id>\\w+)$/
            c: send line "{id}"
            s: expect line "second"
            """)
        result.expectPassed()
    }

    /// mosquitto, the broker that showed it: a QoS 2 PUBLISH with packet id ff 80, whose PUBREC
    /// the probe answers with a PUBREL built from the captured id. Written back as U+FFFD's
    /// UTF-8, the PUBREL was malformed and the broker never sent PUBCOMP.
    @Test(.mosquitto) func mosquittoGetsItsPacketIdBackUnchanged() async throws {
        let result = try await ScenarioHarness.run(#"""
            set timeout 3s
            var port = free-port
            spawn broker "mosquitto -p {port}" ready on 127.0.0.1:{port} within 10s
            connect 127.0.0.1:{port}
            send hex"10 10 00 04 4d 51 54 54 04 02 00 3c 00 04 74 65 73 74"
            expect hex"20 02 00 00"
            send hex"34 06 00 01 74 ff 80 78"
            expect until /\x50\x02(?<pid>..)/ max 4
            send hex"62 02 {pid}"
            expect hex"70 02 ff 80"
            """#)
        result.expectPassed()
    }
}
