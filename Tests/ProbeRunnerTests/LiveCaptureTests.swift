import Foundation
import NIOConcurrencyHelpers
@testable import ProbeCapture
import ProbeHost
import ProbeResults
import ProbeRunner
import ProbeScript
import TestSupport
import Testing

/// Capture on the real loopback interface. Needs CAP_NET_RAW (CI runs as root), and the
/// process's capture ring to itself: some tests read the ring's counters.
@Suite(.serialized, .alone, .root)
struct LiveCaptureTests {
    private func run(_ text: String, against peer: TestPeer, keep: CaptureSettings.Keep = .never, directory: String? = nil,
                     snapLength: Int = PcapCapture.fullSnapLength) async throws -> ScenarioResult {
        let path = "live.scn"
        let loaded = ScenarioLoader.load(path, predefinedVariables: ["port"]) { _ in text }
        let scenario = try #require(loaded.scenario, "\(loaded.diagnostics)")
        let options = RunOptions(variables: ["port": String(peer.port)],
                                 capture: CaptureSettings(directory: directory, keep: keep, snapLength: snapLength))
        return await ScenarioHarness.runOnOwnLoop(scenario, options: options)
    }

    /// Length-prefixed messages on the wire: one in one segment passes, one written in two
    /// pieces fails `messages unsplit`, naming the message and its segments.
    @Test func messageChecksCutTheStreamByLengthHeaders() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await run("""
            set capture on
            set framing length 2
            connect 127.0.0.1:{port}
            send message "hello"
            expect message "hello"
            assert wire from peer message "hello" in 1 segment
            assert wire from probe messages unsplit
            send message "split" split at 3
            expect message "split"
            assert wire from probe messages unsplit
            """, against: peer)
        result.expectFailure(line: 10, containing: "wire from probe: the message \"split\" (7 bytes at offset 7) was split across 2 segments")
        #expect(result.log.contains { $0.message.contains("wire from peer: message \"hello\" arrived in 1 segment") }, "\(result.log.map(\.message))")
        #expect(result.log.contains { $0.message.contains("wire from probe: 1 message, not split across segments") })
    }

    /// Under MQTT's framing (a head byte, then a varint), plain and over TLS: the wire checks
    /// cut the captured (or decrypted) stream as the connection reads it, head and all.
    @Test(arguments: [false, true]) func messageChecksCutVarintMessagesWithHeads(overTLS: Bool) async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let tls = overTLS ? " tls" : ""
        let result = try await run("""
            set capture on
            set framing varint after 1
            listen l 127.0.0.1:0\(tls)
            connect c 127.0.0.1:{l.port}\(overTLS ? " tls ca \"{l.cert}\"" : "")
            accept s on l
            c: send message head hex"30" "hello"
            s: expect message head hex"30" "hello"
            s: assert wire from peer message "hello" in 1 \(overTLS ? "record" : "segment")
            s: assert wire from peer messages unsplit
            c: send message head hex"30" "split" split at 2
            s: expect message "split"
            s: assert wire from peer messages unsplit
            """, against: peer)
        let unit = overTLS ? "TLS records" : "segments"
        result.expectFailure(line: 12, containing: "the message \"split\" (7 bytes at offset 7) was split across 2 \(unit)")
    }

    /// Four scenarios at once against one server port: each pcap holds its own connection, SYN
    /// to FIN, both directions, and no other scenario's (the ring routes a shared port's
    /// packets by the connection a capture claimed), whichever side's port is the lower: the
    /// server's below the kernel's range and the clients' in it, or the reverse (the clients
    /// connecting from ports below it, the server's in it).
    @Test(arguments: [false, true]) func sideBySideScenariosKeepOnlyTheirOwnConnections(serverLower: Bool) async throws {
        let peer = try await TestPeer.start(.echo, port: serverLower ? try #require(FreePort.pick()) : 0)
        defer { Task { await peer.stop() } }
        let from = serverLower ? "" : " from 127.0.0.1:{source}" 
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-pcap-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let results = try await withThrowingTaskGroup(of: ScenarioResult.self) { group in
            for copy in 0..<4 {
                let source = try #require(FreePort.pick())
                group.addTask {
                    try await run("""
                        set capture on
                        var source = "\(source)"
                        connect 127.0.0.1:{port}\(from)
                        send line "copy \(copy)"
                        expect line "copy \(copy)"
                        close
                        sleep 50ms
                        """, against: peer, keep: .always, directory: directory)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in results {
            result.expectPassed()
            let pcap = String(try #require(result.notes.first { $0.hasPrefix("pcap: ") }).dropFirst(6))
            let segments = try PcapFile.packets(in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: pcap)))).compactMap(PacketDecoder.segment)
            let connections = Set(segments.map { [$0.sourcePort, $0.destinationPort].sorted() })
            #expect(connections.count == 1, "\(pcap) holds \(connections)")
            let serverSide = connections.first.map { serverLower ? $0[0] : $0[1] }
            #expect(serverSide == peer.port, "\(connections): the server's port is the \(serverLower ? "lower" : "higher")")
            #expect(Set(segments.map(\.sourcePort)).count == 2, "both directions: \(Set(segments.map(\.sourcePort)))")
            #expect(segments.contains { $0.flags.contains(.syn) } && segments.contains { $0.flags.contains(.fin) }, "\(segments.map(\.flags))")
        }
    }

    @Test func everyPropertyPassesOnAConformingPeer() async throws {
        let peer = try await TestPeer.start(.finAfter(Array("+OK\r\n".utf8)))
        defer { Task { await peer.stop() } }
        let result = try await run("""
            connect 127.0.0.1:{port}
            expect line "+OK"
            expect eof
            assert wire from peer terminator crlf
            assert wire from peer lines unsplit
            assert wire from peer line "+OK" in 1 segment
            assert wire from peer line /^\\+O/ in 1 segment
            assert wire from peer segments = 1
            assert wire from peer max-segment <= 5
            assert wire from peer bytes = 5
            assert wire from peer fin
            assert wire from peer no rst
            assert wire from probe segments = 0
            """, against: peer)
        result.expectPassed()
    }

    @Test func aBareLFPeerFailsTheTerminatorWithTheSegmentShown() async throws {
        let peer = try await TestPeer.start(.finAfter(Array("a\r\nb\n".utf8)))
        defer { Task { await peer.stop() } }
        let result = try await run("connect 127.0.0.1:{port}\nexpect bytes 5\nexpect eof\nassert wire from peer terminator crlf", against: peer)
            .failure
        let failure = try #require(result)
        #expect(failure.message.contains("bare LF (no CR before it) at stream offset 4"))
        #expect(failure.message.contains(#"← PSH,ACK     len 5 win"#), "\(failure.message)")
    }

    @Test func aPeerThatSplitsItsRepliesFailsUnsplitAndOneSegment() async throws {
        let peer = try await TestPeer.start(.dribble(Array("+OK\r\n".utf8), interval: .milliseconds(5)))
        defer { Task { await peer.stop() } }
        let unsplit = try await run("connect 127.0.0.1:{port}\nexpect line \"+OK\"\nassert wire from peer lines unsplit", against: peer)
        unsplit.expectFailure(line: 3, containing: "was split across 5 segments")
        let oneSegment = try await run("connect 127.0.0.1:{port}\nexpect line \"+OK\"\nassert wire from peer line \"+OK\" in 1 segment", against: peer)
        oneSegment.expectFailure(line: 3, containing: "arrived in 5 segments")
        let count = try await run("connect 127.0.0.1:{port}\nexpect line \"+OK\"\nassert wire from peer segments <= 1", against: peer)
        count.expectFailure(line: 3, containing: "data-bearing segments: 5 (expected <= 1)")
    }

    @Test func aResettingPeerFailsFinAndNoRst() async throws {
        let peer = try await TestPeer.start(.resetAfter(Array("bye\r\n".utf8)))
        defer { Task { await peer.stop() } }
        try await run("connect 127.0.0.1:{port}\nexpect line \"bye\"\nexpect reset\nassert wire from peer rst\nassert wire from peer no fin", against: peer).expectPassed()
        try await run("connect 127.0.0.1:{port}\nexpect line \"bye\"\nexpect reset\nassert wire from peer fin", against: peer)
            .expectFailure(line: 4, containing: "no FIN was sent")
        try await run("connect 127.0.0.1:{port}\nexpect line \"bye\"\nexpect reset\nassert wire from peer no rst", against: peer)
            .expectFailure(line: 4, containing: "a RST was sent")
    }

    @Test func pausedReadingShowsAZeroWindowFromTheProbe() async throws {
        let peer = try await TestPeer.start(.bulkLines(2048))
        defer { Task { await peer.stop() } }
        let paused = try await run("""
            set timeout 10s
            connect 127.0.0.1:{port} rcvbuf 1KiB
            pause reading
            sleep 300ms
            assert wire from probe zero-window
            assert wire from peer no rst
            """, against: peer)
        paused.expectPassed()
        #expect(!paused.log.contains { $0.message.contains("on its own") }, "\(paused.log.map(\.message))")
    }

    /// With no expect reading, the probe stops at its high-water mark, and the note says that
    /// this, not the scenario, closed the window.
    @Test func aZeroWindowTheProbeAdvertisedOnItsOwnIsNamedSo() async throws {
        let peer = try await TestPeer.start(.bulkLines(2048))
        defer { Task { await peer.stop() } }
        let result = try await run("""
            set timeout 10s
            set unread ignore
            connect 127.0.0.1:{port} rcvbuf 4KiB
            sleep 500ms
            assert wire from probe zero-window
            """, against: peer)
        result.expectPassed()
        let note = try #require(result.log.first { $0.message.contains("wire from probe") }?.message)
        #expect(note.contains("(not asked for by `pause reading` or `read slowly`: it stops reading on its own at 256KiB of bytes no expect has read, its high-water mark)"), "\(note)")
    }

    @Test func injectedSplitsAreVerifiedOnTheWire() async throws {
        let peer = try await TestPeer.start(.lineReply)
        defer { Task { await peer.stop() } }
        let result = try await run("""
            connect 127.0.0.1:{port}
            send line "msg:hello" split at 3,5 every 10ms
            expect line "got:msg:hello"
            assert wire from probe segments = 3
            """, against: peer)
        result.expectPassed()
        #expect(result.notes.contains { $0.contains("all 3 writes left as separate segments, at least ") && $0.hasSuffix("ms apart (verified on the wire)") }, "\(result.notes)")
    }

    /// Two split sends on one connection: the first leaves as its pieces, the second is queued
    /// behind a zero window and leaves coalesced. Each is judged at its own stream offsets.
    @Test func eachSplitSendIsJudgedWhereItStandsInTheStream() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await run("""
            set capture on
            var lp = free-port
            listen l 127.0.0.1:{lp}
            connect a 127.0.0.1:{lp} sndbuf 1MiB
            accept b on l
            a: send "abcdef" split at 3
            b: expect bytes 6 = "abcdef"
            b: pause reading
            a: send random 256KiB
            a: send "ghijkl" split at 3 every 0
            sleep 50ms
            b: resume reading
            b: expect bytes 262144
            b: expect bytes 6 = "ghijkl"
            """, against: peer)
        result.expectPassed()
        let first = try #require(result.notes.first { $0.contains(":6 a: send") }, "\(result.notes)")
        #expect(first.contains("all 2 writes left as separate segments, ") && first.contains(" apart (verified on the wire)"), "\(first)")
        let gap = try #require(first.firstMatch(of: #/, ([0-9.]+)ms apart/#), "the default gap is milliseconds: \(first)")
        #expect(Double(gap.output.1)! >= 4.5, "\(first)")
        let second = try #require(result.notes.first { $0.contains(":10 a: send") }, "\(result.notes)")
        #expect(second.contains("NOT verified: 1 of the 1 boundaries between writes did not start a segment (at stream offsets 262153)"), "\(second)")
        #expect(result.notes.filter { $0.contains("verified") }.count == 2, "a send of one write is not checked: \(result.notes)")
    }

    @Test(.tshark) func tsharkReadsOurPcapAndAgreesOnEverySegment() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-pcap-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let result = try await run("""
            set capture on
            connect 127.0.0.1:{port}
            send line "hello" in chunks of 2 every 5ms
            expect line "hello"
            shutdown write
            expect eof
            """, against: peer, keep: .always, directory: directory)
        result.expectPassed()
        let pcap = try #require(result.notes.first { $0.hasPrefix("pcap: ") }).dropFirst(6)
        let ours = try PcapFile.packets(in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: String(pcap))))).compactMap(PacketDecoder.segment)
        let output = try Tshark.run(["-r", String(pcap), "-T", "fields", "-e", "tcp.len", "-e", "tcp.flags", "-e", "tcp.window_size"])
        let theirs = output.split(separator: "\n").map { $0.split(separator: "\t") }
        #expect(theirs.count == ours.count, "tshark saw \(theirs.count) packets, tcpprobe \(ours.count)")
        #expect(ours.count >= 10)
        // `show`'s windows are tshark's calculated window sizes: scaled by the SYNs' option.
        let formatter = SegmentFormatter(start: 0, leftPort: 0, windowShifts: ConversationRenderer.windowShifts(ours))
        #expect(!formatter.windowShifts.isEmpty, "Linux scales windows on loopback")
        for (row, segment) in zip(theirs, ours) {
            #expect(row.count == 3, "tshark row \(row)")
            #expect(row.first.flatMap { Int($0) } == segment.payload.count)
            let flags = row[1...].first.flatMap { UInt8($0.dropFirst(2), radix: 16) }.map { $0 & 0x1F }
            #expect(flags == segment.flags.rawValue)
            #expect(row.last.flatMap { Int($0) } == formatter.window(of: segment), "tshark \(row), ours \(formatter.row(segment))")
        }
    }

    /// `show` marks the segments that filled the probe's window where Wireshark does
    /// (`tcp.analysis.window_full`), on a real slow read.
    @Test(.tshark) func windowFullMarksAgreeWithTshark() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-pcap-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let peer = try await TestPeer.start(.bulkLines(2048))
        defer { Task { await peer.stop() } }
        let result = try await run("""
            set capture on
            set unread ignore
            connect 127.0.0.1:{port} rcvbuf 128KiB
            read slowly 8KiB every 10ms for 300ms
            """, against: peer, keep: .always, directory: directory)
        result.expectPassed()
        let pcap = try #require(result.notes.first { $0.hasPrefix("pcap: ") }).dropFirst(6)
        let ours = try PcapFile.packets(in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: String(pcap))))).compactMap(PacketDecoder.segment)
        let probe = try #require(ours.first).sourcePort
        #expect(ConversationRenderer.windowShifts(ours)[probe] ?? 0 > 0, "a buffer of 128 KiB scales its window")
        let marked = ConversationRenderer.analysisMarks(ours).enumerated().filter { $0.element.contains("[WINDOW FULL]") }.map { $0.offset + 1 }
        let theirs = try Tshark.run(["-r", String(pcap), "-Y", "tcp.analysis.window_full", "-T", "fields", "-e", "frame.number"])
        #expect(!marked.isEmpty, "a buffer read 8 KiB at a time is filled")
        #expect(marked == theirs.split(separator: "\n").compactMap { Int($0) }, "ours \(marked), tshark's \(theirs)")
    }

    @Test func a256MiBTransferIsCapturedWithoutDrops() async throws {
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await run("""
            set timeout 30s
            connect 127.0.0.1:{port}
            send random 256MiB
            shutdown write
            expect eof
            assert wire from probe bytes = 256MiB
            """, against: peer)
        result.expectPassed()
        #expect(peer.log.received.count == 256 * 1024 * 1024)
    }

    @Test func aShortSnapLengthJudgesLengthsAndKeepsOnlyHeadersInThePcap() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-snaplen-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let result = try await run("""
            connect 127.0.0.1:{port}
            send random 1MiB
            shutdown write
            expect eof
            assert wire from probe bytes = 1MiB
            assert wire from probe fin
            """, against: peer, keep: .always, directory: directory, snapLength: 160)
        result.expectPassed()
        let pcap = String(try #require(result.notes.first { $0.hasPrefix("pcap: ") }).dropFirst(6))
        let packets = try PcapFile.packets(in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: pcap))))
        #expect(packets.allSatisfy { $0.data.count <= 160 })
        #expect(packets.contains { $0.originalLength > 1000 }, "the data packets were cut, not missed")
        let long = String(repeating: "a", count: 500) // longer than the snap length keeps
        let checked = try await run("connect 127.0.0.1:{port}\nsend line \"\(long)\"\nassert wire from probe terminator crlf",
                                    against: peer, snapLength: 160)
        checked.expectFailure(line: 3, containing: "inconclusive: the capture kept only the start of each packet")
        // The scenario can ask for the same: `set capture headers`.
        let headers = try await run("set capture headers\nconnect 127.0.0.1:{port}\nsend line \"\(long)\"\nassert wire from probe bytes = 502\n"
                                    + "assert wire from probe terminator crlf", against: peer)
        headers.expectFailure(line: 5, containing: "inconclusive: the capture kept only the start of each packet")
    }

    @Test func hostilePeersLeaveACompleteReadablePcap() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-hostile-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cases: [(PeerBehaviour, String)] = [
            (.flood(limit: 64 * 1024 * 1024), "expect line any within 5s"),
            (.resetAfter(Array("half a li".utf8)), "expect line any within 2s"),
            (.silent, "send line \"hello?\"\nexpect any within 200ms"),
        ]
        for (behaviour, steps) in cases {
            let peer = try await TestPeer.start(behaviour)
            let result = try await run("set capture on\nconnect 127.0.0.1:{port}\n\(steps)", against: peer, keep: .always, directory: directory)
            await peer.stop()
            #expect(result.failure != nil, "\(behaviour) should fail")
            let path = String(try #require(result.notes.first { $0.hasPrefix("pcap: ") }).dropFirst(6))
            let packets = try PcapFile.packets(in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            let segments = packets.compactMap(PacketDecoder.segment)
            #expect(segments.first?.flags == [.syn], "\(behaviour): the capture starts with the SYN")
            #expect(!result.notes.contains { $0.contains("dropped") }, "\(behaviour): \(result.notes)")
        }
    }

    /// Captures that run at once share the process's ring, and each file holds only the traffic
    /// of its own ports.
    @Test func capturesAtOnceShareOneRingAndEachKeepsItsOwnTraffic() async throws {
        let directory = try newDirectory("tcpprobe-shared")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let peers = [try await TestPeer.start(.silent), try await TestPeer.start(.silent), try await TestPeer.start(.silent)]
        defer { Task { for peer in peers { await peer.stop() } } }
        let opened = SharedCaptureRing.opened
        let captures = try peers.indices.map { try PcapCapture(path: directory + "/c\($0).pcap") }
        #expect(SharedCaptureRing.opened - opened <= 1, "one ring for all of them")
        for (capture, peer) in zip(captures, peers) { try capture.watch(port: peer.port) }
        for round in 0..<3 {
            for (index, peer) in peers.enumerated() { try exchange(100 * (index + 1) + round, withPort: peer.port) }
        }
        for (index, capture) in captures.enumerated() {
            let stats = capture.stop()
            #expect(stats.incompleteness == nil)
            let segments = try PcapFile.segments(atPath: capture.path)
            #expect(segments.allSatisfy { [$0.sourcePort, $0.destinationPort].contains(peers[index].port) }, "capture \(index)")
            let sent = segments.filter { $0.destinationPort == peers[index].port }.reduce(0) { $0 + $1.length }
            #expect(sent == 3 * 100 * (index + 1) + 3, "capture \(index) holds its three exchanges, whole")
        }
    }

    @Test func aSecondCaptureReusesTheRingAndKeepsOnlyItsOwnTrafficAndCounts() async throws {
        let directory = try newDirectory("tcpprobe-ring")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await TestPeer.start(.silent)
        let second = try await TestPeer.start(.silent)
        defer { Task { await first.stop(); await second.stop() } }
        let opened = SharedCaptureRing.opened
        let earlier = try PcapCapture(path: directory + "/first.pcap")
        try earlier.watch(port: first.port)
        try exchange(100, withPort: first.port)
        earlier.stop()

        let later = try PcapCapture(path: directory + "/second.pcap")
        #expect(SharedCaptureRing.opened - opened <= 1, "the second capture should reuse the first one's ring")
        try later.watch(port: second.port)
        try exchange(200, withPort: first.port) // the first capture's port, no longer watched
        try exchange(200, withPort: second.port)
        let stats = later.stop()
        let segments = try PcapFile.segments(atPath: later.path)
        #expect(segments.first?.flags == [.syn])
        #expect(segments.allSatisfy { [$0.sourcePort, $0.destinationPort].contains(second.port) }, "\(segments.map(\.sourcePort))")
        #expect(segments.reduce(0) { $0 + $1.payload.count } == 200)
        // The kernel filter let in only the watched port: the ring's counters since this
        // capture began count the packets in its file and none of the unwatched exchange.
        #expect(stats.received == segments.count, "counters since this capture began: \(stats)")
        #expect(stats.dropped == 0)
    }

    /// Captures that come and go change the kernel filter again and again while another
    /// capture's traffic flows: the running capture loses nothing to the changes.
    @Test func filterChangesUnderTrafficLoseNothing() async throws {
        let directory = try newDirectory("tcpprobe-filter")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let busy = try await TestPeer.start(.silent)
        let other = try await TestPeer.start(.silent)
        defer { Task { await busy.stop(); await other.stop() } }
        let ring = 256 * 1024 * 1024 // about 2,000 slots: a burst of 1,000 whole packets fits without a hold
        let capture = try PcapCapture(path: directory + "/busy.pcap", bufferSize: ring)
        try capture.watch(port: busy.port)
        let size = 64 * 1024 * 1024, rounds = 8
        let finished = NIOLockedValueBox(false)
        let transfer = Task.detached { [self] in
            defer { finished.withLockedValue { $0 = true } }
            for _ in 0..<rounds { try exchange(size, withPort: busy.port) }
        }
        var changes = 0
        let began = ContinuousClock.now
        while !finished.withLockedValue({ $0 }), changes < 20_000, ContinuousClock.now - began < .seconds(20) {
            let passing = try PcapCapture(path: directory + "/passing.pcap", bufferSize: ring)
            try passing.watch(port: other.port) // the filter adds its port…
            passing.stop() // …and drops it again
            changes += 2
        }
        try await transfer.value
        let stats = capture.stop()
        #expect(changes >= 20, "the filter changed \(changes) times while the traffic flowed")
        #expect(stats.incompleteness == nil, "\(stats)")
        // Each connection's stream, reassembled (a retransmission counts once): whole, no holes.
        let sent = Dictionary(grouping: try PcapFile.segments(atPath: capture.path).filter { $0.destinationPort == busy.port }, by: \.sourcePort)
            .values.map { DirectionTrace(segments: $0) }
        #expect(sent.count == rounds && sent.allSatisfy { $0.byteCount == size && $0.holes.isEmpty },
                "after \(changes) changes: \(sent.map { ($0.byteCount, $0.holes) })")
    }

    /// Checks of lengths read payload prefixes and checks of content whole payloads, often in
    /// turns: each prefix keeps its own decoded segments, and each sees the traffic since.
    @Test func payloadPrefixesTakingTurnsEachSeeWholeTraffic() async throws {
        let directory = try newDirectory("tcpprobe-prefix")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let capture = try PcapCapture(path: directory + "/prefix.pcap")
        defer { capture.stop() }
        try capture.watch(port: peer.port)
        for (round, size) in [300, 500].enumerated() {
            try exchange(size, withPort: peer.port)
            capture.sync()
            for prefix in [64, .max, 64] {
                let data = try capture.segments(payloadPrefix: prefix).filter { $0.length > 0 }
                #expect(data.reduce(0) { $0 + $1.length } == [300, 800][round], "round \(round), prefix \(prefix)")
                #expect(data.allSatisfy { $0.payload.count == min($0.length, prefix) }, "round \(round), prefix \(prefix)")
            }
        }
    }

    /// A pcap the disk cannot hold makes the capture incomplete, saying why: wire checks read
    /// the file. The file is a `/dev/full` (char 1,7), whose every write fails with ENOSPC.
    @Test func aFullDiskMakesTheCaptureIncompleteAndSaysSo() async throws {
        let directory = try newDirectory("tcpprobe-full")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let path = directory + "/full.pcap"
        try #require(mknod(path + ".part", S_IFCHR | 0o600, dev_t(1 << 8 | 7)) == 0, "mknod: \(String(cString: strerror(errno)))")
        let capture = try PcapCapture(path: path)
        defer { capture.stop() }
        try capture.watch(port: peer.port)
        #expect(capture.stats().incompleteness == nil)
        try exchange(64 * 1024, withPort: peer.port)
        capture.sync()
        #expect(capture.stats().incompleteness == "the pcap file could not be written whole (the disk is full)")
    }

    /// The pcap goes to a FIFO nobody reads, so the capture's writer blocks for real: the ring
    /// fill climbs past the hold mark, the overflow is counted as dropped, and once the FIFO is
    /// read again the fill falls back to nothing.
    @Test func aStalledWriterFillsTheRingAndItsDropsAreCounted() async throws {
        let directory = try newDirectory("tcpprobe-stall")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let peer = try await TestPeer.start(.silent)
        defer { Task { await peer.stop() } }
        let path = directory + "/stalled.pcap"
        try #require(mkfifo(path + ".part", 0o600) == 0)
        let fifo = open(path + ".part", O_RDONLY | O_NONBLOCK) // a reader exists, so the capture's open does not block
        try #require(fifo >= 0)
        defer { close(fifo) }
        let capture = try PcapCapture(path: path, bufferSize: 2 * 1024 * 1024) // about 30 whole-packet slots
        try capture.watch(port: peer.port)
        for _ in 0..<4 { try exchange(256 * 1024, withPort: peer.port) } // far more than a 64 KiB pipe and 30 slots hold
        let filled = await Eventually.holds(within: .seconds(2)) { capture.ringFill() > 0.8 }
        #expect(filled, "the ring fills past the hold mark while its writer is stuck: \(capture.ringFill())")

        // The reader must be gone before the FIFO is closed: a read on its descriptor after the
        // close would take the bytes of whatever the next test opens under the same number.
        let readerDone = DispatchSemaphore(value: 0)
        let drained = Thread { // reads the FIFO until the capture closes it, for at most 10 s
            defer { readerDone.signal() }
            var buffer = [UInt8](repeating: 0, count: 65536)
            var descriptor = pollfd(fd: fifo, events: Int16(POLLIN), revents: 0)
            for _ in 0..<10_000 {
                guard poll(&descriptor, 1, 1) >= 0 else { return }
                if descriptor.revents & Int16(POLLHUP) != 0, read(fifo, &buffer, buffer.count) <= 0 { return }
                _ = read(fifo, &buffer, buffer.count)
            }
        }
        drained.start()
        defer { _ = readerDone.wait(timeout: .now() + 15) } // runs before `close(fifo)`
        capture.sync()
        #expect(capture.ringFill() == 0, "everything captured has been written")
        let stats = capture.stop()
        #expect(stats.dropped > 0, "30 slots cannot hold four 256 KiB exchanges: \(stats)")
        #expect(stats.incompleteness?.contains("--capture-buffer") == true)
    }

    /// Connects, sends `count` bytes, half-closes and reads until the peer closes.
    /// A new directory under the temporary one, named `prefix` and a UUID; the caller removes it.
    private func newDirectory(_ prefix: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    private func exchange(_ count: Int, withPort port: Int) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let bytes = [UInt8](repeating: 0x61, count: count)
        try #require(send(socket, bytes, count, 0) == count)
        shutdown(socket, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 64)
        try #require(recv(socket, &buffer, buffer.count, 0) == 0, "the peer closes after our half-close")
    }
}
