import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `network`: real subjects in a namespace of their own, behind a link whose packets the probe
/// forwards, drops, holds and duplicates itself. Each scenario runs the built binary, as a user
/// runs it. A step of `.ci/run` of its own (TCPPROBE_NETWORK_TESTS=1): loss makes TCP wait out
/// retransmission timeouts, about 40 s in all, which the main run's budget has no room for.
@Suite(.serialized, .root, .ip, .tun, .redis, .nginx, .enabled(if: ProcessInfo.processInfo.environment["TCPPROBE_NETWORK_TESTS"] == "1"))
struct NetworkTests {
    /// linechat's server in network `n` (made by `networkLine`), and the probe connected to it.
    private static func linechat(_ networkLine: String) -> String {
        """
        var port = free-port
        set timeout 5s
        set deadline 60s
        \(networkLine)
        spawn server "\(ProbeProcess.linechat.path) serve --host {n.host} --port {port}" in n ready on {n.host}:{port} within 10s
        connect {n.host}:{port}

        """
    }

    /// Runs `scenario` with `-v`: its exit status and step log.
    private func run(_ scenario: String, _ arguments: [String] = []) async throws -> ProbeProcess.Output {
        try await ProbeProcess.run(["run", "-v", "s.scn"] + arguments, with: ["s.scn": scenario])
    }

    /// What tcpprobe's networks left on the machine: namespaces and devices.
    private func leftovers() async throws -> [String] {
        let namespaces = (try? FileManager.default.contentsOfDirectory(atPath: "/run/netns")) ?? []
        let links = try await ProbeProcess.run(["-o", "link", "show"], executable: URL(fileURLWithPath: Requirement.ip.path!)).stdout
        return namespaces.filter { $0.hasPrefix("tcpprobe-") } + links.split(separator: "\n").filter { $0.contains(": tp") }.map(String.init)
    }

    /// How many data segments from `source` tshark flags with `flags` in the one pcap of `folder`.
    private func tsharkFlagged(_ flags: String, from source: String, in folder: URL) async throws -> Int {
        let pcap = try #require(FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".pcap") })
        let filter = "ip.src == \(source) && tcp.len > 0 && (\(flags))"
        let fields = try await ProbeProcess.run(["-r", folder.appendingPathComponent(pcap).path, "-Y", filter, "-T", "fields", "-e", "ip.src"],
                                                executable: URL(fileURLWithPath: Requirement.tshark.path!))
        return fields.stdout.split(separator: "\n").count
    }

    /// The addresses of the log's first connection: the peer's and the probe's.
    private func addresses(in log: String) throws -> (peer: String, probe: String) {
        let match = try #require(log.firstMatch(of: #/connected to ([0-9.]+):[0-9]+ from ([0-9.]+):/#))
        return (String(match.1), String(match.2))
    }

    private static let retransmitted = "tcp.analysis.retransmission || tcp.analysis.fast_retransmission || tcp.analysis.spurious_retransmission"

    /// The counts of the log's last line about the link: "upstream N packets (…): D dropped…".
    private func dropped(_ direction: String, in log: String) -> Int? {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("removed; its link carried") }),
              let range = line.range(of: "\(direction) [0-9]+ packets \\([0-9]+ bytes\\): ([0-9]+) dropped", options: .regularExpression) else { return nil }
        return Int(line[range].split(separator: ":").last!.split(separator: " ").first!)
    }

    @Test(.tshark) func twoHundredRoundTripsGetThroughTenPercentLoss() async throws {
        try await ProbeProcess.inDirectory(holding: ["s.scn": Self.linechat("set capture on\nnetwork n loss 10%") + """
            repeat 200 {
              send line "ping"
              expect line "pong"
            }
            assert wire from probe retransmissions > 0
            """]) { directory in
            let output = try await ProbeProcess.run(["run", "-v", "--keep-pcap", "always", "--pcap-dir", "pcaps", "--report", "html=r.html", "s.scn"], in: directory)
            #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
            // The report's ladder marks what the link dropped.
            let html = try String(contentsOf: directory.appendingPathComponent("r.html"), encoding: .utf8)
            #expect(html.contains("✗ dropped by network &apos;n&apos;"))
            // TCP got every line through by sending again what the link dropped.
            #expect((dropped("upstream", in: output.stdout) ?? 0) > 0, "\(output.stdout.suffix(600))")
            #expect((dropped("downstream", in: output.stdout) ?? 0) > 0, "\(output.stdout.suffix(600))")
            // The capture on the link's probe side counts the retransmissions as Wireshark flags them.
            let counted = try #require(output.stdout.firstMatch(of: #/wire from probe: data-bearing segments sent again: ([0-9]+)/#)).1
            let flagged = try await tsharkFlagged(Self.retransmitted, from: try addresses(in: output.stdout).probe, in: directory.appendingPathComponent("pcaps"))
            #expect(flagged == Int(counted), "tcpprobe counted \(counted), tshark flagged \(flagged)")
        }
        #expect(try await leftovers().isEmpty)
    }

    /// Bulk transfers through burst loss, one each way on one connection (300,000 bytes up
    /// under upstream loss, then down under downstream loss, 5 ms each way): each direction's
    /// count of segments sent again is the count of those tshark flags (retransmissions, fast
    /// and spurious ones), though most of what the link dropped comes back within the first
    /// round trip of the sender's newest data, which Wireshark calls out of order.
    @Test(.tshark) func bulkRetransmissionsAreCountedAsTsharkFlagsThem() async throws {
        try await ProbeProcess.inDirectory(holding: ["s.scn": """
            var port = free-port
            set capture headers
            set timeout 20s
            network n delay 5ms
            spawn redis "redis-server --bind {n.host} --port {port} --save '' --appendonly no --protected-mode no" in n ready on {n.host}:{port} within 10s
            connect {n.host}:{port}
            n: loss 15% burst 2 upstream
            send "*3\\r\\n$3\\r\\nSET\\r\\n$1\\r\\nk\\r\\n$300000\\r\\n"
            send random 300000
            send "\\r\\n"
            expect line "+OK"
            n: clear
            n: loss 15% burst 2 downstream
            send "*2\\r\\n$3\\r\\nGET\\r\\n$1\\r\\nk\\r\\n"
            expect line "$300000"
            expect bytes 300002
            assert wire from probe retransmissions > 0
            assert wire from peer retransmissions > 0
            """]) { directory in
            let output = try await ProbeProcess.run(["run", "-v", "--keep-pcap", "always", "--pcap-dir", "pcaps", "s.scn"], in: directory)
            #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
            let (peer, probe) = try addresses(in: output.stdout)
            for (side, address) in [("probe", probe), ("peer", peer)] {
                let counted = try #require(output.stdout.firstMatch(of: try Regex("wire from \(side): data-bearing segments sent again: ([0-9]+)"))?.output[1].substring)
                let flagged = try await tsharkFlagged(Self.retransmitted, from: address, in: directory.appendingPathComponent("pcaps"))
                #expect(flagged == Int(counted), "from \(side): tcpprobe counted \(counted), tshark flagged \(flagged)")
            }
        }
        #expect(try await leftovers().isEmpty)
    }

    /// Duplicated and reordered packets on the way to the probe are on its capture: the
    /// duplicates as segments sent again (tshark flags as many), the reordered as tshark's
    /// out-of-order or retransmitted segments. Headers only: the 1 MiB answer comes as a burst
    /// the link does not pace, and whole packets can fill the capture's buffer on a busy machine.
    @Test(.tshark) func duplicatesAndReorderingAreOnTheWire() async throws {
        for (fault, flags) in [("duplicate 10%", Self.retransmitted), ("reorder 10% gap 5ms", "tcp.analysis.out_of_order || tcp.analysis.retransmission")] {
            try await ProbeProcess.inDirectory(holding: ["s.scn": """
                var port = free-port
                set capture headers
                set timeout 10s
                network n
                spawn redis "redis-server --bind {n.host} --port {port} --save '' --appendonly no --protected-mode no" in n ready on {n.host}:{port} within 10s
                connect {n.host}:{port}
                send "*3\\r\\n$3\\r\\nSET\\r\\n$1\\r\\nk\\r\\n$1048576\\r\\n"
                send random 1MiB
                send "\\r\\n"
                expect line "+OK"
                n: \(fault) downstream
                send "*2\\r\\n$3\\r\\nGET\\r\\n$1\\r\\nk\\r\\n"
                expect line "$1048576"
                expect bytes 1048578
                assert wire from peer retransmissions >= 0
                """]) { directory in
                let output = try await ProbeProcess.run(["run", "-v", "--keep-pcap", "always", "--pcap-dir", "pcaps", "s.scn"], in: directory)
                #expect(output.status == 0, "\(fault): \(output.stdout)\(output.stderr)")
                let link = output.stdout.split(separator: "\n").last { $0.contains("removed; its link carried") } ?? ""
                #expect(link.contains(fault.hasPrefix("duplicate") ? "duplicated" : "reordered"), "\(fault): \(link)")
                let flagged = try await tsharkFlagged(flags, from: try addresses(in: output.stdout).peer, in: directory.appendingPathComponent("pcaps"))
                #expect(flagged > 0, "\(fault): tshark flagged nothing")
                if fault.hasPrefix("duplicate") {
                    let counted = try #require(output.stdout.firstMatch(of: #/wire from peer: data-bearing segments sent again: ([0-9]+)/#)).1
                    // Equal in every run here but one under load (83 against 84, in about 30 runs):
                    // within one and a fiftieth, not to the segment.
                    let ours = try #require(Int(counted))
                    #expect(abs(ours - flagged) <= 1 + flagged / 50, "\(fault): tcpprobe counted \(ours), tshark flagged \(flagged)")
                }
            }
        }
        #expect(try await leftovers().isEmpty)
    }

    /// 100 ms each way: no answer in the first 185 ms, and one within 30 ms after.
    @Test func aDelayOf100msRaisesTheRoundTripBy200ms() async throws {
        let output = try await run(Self.linechat("network n delay 100ms") + """
            repeat 5 {
              send line "ping"
              expect nothing for 185ms
              expect line "pong" within 30ms
            }
            n: clear
            send line "ping"
            expect line "pong" within 30ms
            """)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    }

    @Test func aPartitionFailsAnExpectAndHealingLetsTheConnectionRecover() async throws {
        let failed = try await run(Self.linechat("network n") + """
            n: partition
            send line "ping"
            expect line "pong" within 1s
            """)
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("within 1s"), "\(failed.stdout)")
        #expect(failed.stdout.contains("network 'n': partition from now on"), "\(failed.stdout)")
        let healed = try await run(Self.linechat("network n") + """
            n: partition
            send line "ping"
            sleep 1s
            n: heal
            expect line "pong" within 5s
            """)
        #expect(healed.status == 0, "\(healed.stdout)\(healed.stderr)")
        #expect(try await leftovers().isEmpty)
    }

    /// 2 MiB to redis at 1 MiB/s: its +OK comes 2 s (±10%) after the rate is set.
    @Test func aRateHoldsWithinTenPercent() async throws {
        let output = try await run("""
            var port = free-port
            set timeout 10s
            network n
            spawn redis "redis-server --bind {n.host} --port {port} --save '' --appendonly no --protected-mode no" in n ready on {n.host}:{port} within 10s
            connect {n.host}:{port}
            send "*1\\r\\n$4\\r\\nPING\\r\\n"
            expect line "+PONG"
            n: rate 1MiB/s upstream
            send "*3\\r\\n$3\\r\\nSET\\r\\n$1\\r\\nk\\r\\n$2097152\\r\\n"
            send random 2MiB
            send "\\r\\n"
            expect line "+OK"
            """)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        func time(_ marker: String) -> Double? {
            guard let line = lines.first(where: { $0.contains(marker) }), let stamp = line.split(separator: " ").first(where: { $0.hasPrefix("+") }) else { return nil }
            return Double(stamp.dropFirst().dropLast())
        }
        let start = try #require(time("rate 1MiB/s upstream from now on")), end = try #require(time("got line \"+OK\""))
        #expect(abs(end - start - 2.0) <= 0.2, "2 MiB took \(end - start) s at 1 MiB/s")
    }

    /// redis-cli on the probe's side, redis-server across a lossy link: every answer comes.
    @Test func redisCliGetsEveryAnswerAcrossALossyLink() async throws {
        var scenario = """
            var port = free-port
            set timeout 10s
            network n loss 10%
            spawn redis "redis-server --bind {n.host} --port {port} --save '' --appendonly no --protected-mode no" in n ready on {n.host}:{port} within 10s
            spawn cli "redis-cli -h {n.host} -p {port}" with stdin

            """
        for count in 1...30 { scenario += "input cli line \"INCR hits\"\nexpect stdout cli line \"\(count)\"\n" }
        let output = try await run(scenario)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    }

    /// nginx in the namespace (its own, so port 8080 is free there), a request dripped a few
    /// bytes at a time over a delayed link.
    @Test func nginxAnswersASlowlorisDripOverADelayedLink() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tcpprobe-nginx-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory + "/www", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "hello from nginx\n".write(toFile: directory + "/www/hello.txt", atomically: true, encoding: .utf8)
        let temporary = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map { "\($0)_temp_path \(directory)/\($0);" }.joined(separator: " ")
        try """
            daemon off; master_process off; worker_processes 1; pid \(directory)/nginx.pid; error_log \(directory)/error.log;
            events { worker_connections 16; }
            http { access_log off; \(temporary) server { listen 8080; root \(directory)/www; } }
            """.write(toFile: directory + "/nginx.conf", atomically: true, encoding: .utf8)
        let output = try await run("""
            set timeout 10s
            network n delay 50ms
            spawn web "\(Requirement.nginx.path!) -p \(directory) -c \(directory)/nginx.conf -e \(directory)/error.log" in n ready on {n.host}:8080 within 10s
            connect {n.host}:8080
            send "GET /hello.txt HTTP/1.1\\r\\nHost: tcpprobe\\r\\nConnection: close\\r\\n\\r\\n" in chunks of 4 every 30ms
            expect line "HTTP/1.1 200 OK"
            expect until "hello from nginx\\n" max 1KiB
            """)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    }

    /// The link carries IPv6 too: linechat on the namespace's IPv6 address, across a delay and
    /// loss. 20 ms each way: no answer in the first 30 ms (a margin of 10 ms for a busy machine
    /// to start the expect late; 1 ms of margin failed once beside two busy loops). The seed is
    /// fixed: with seed 132 the link's first three loss draws (seed + 1, the run's first network)
    /// all fall under 10%, so a drop is certain; a random seed left all ~50 packets whole once
    /// (0.9^50 ≈ 0.5%).
    @Test func theLinkCarriesIPv6() async throws {
        let output = try await run("""
            var port = free-port
            set timeout 10s
            network n delay 20ms
            spawn server "\(ProbeProcess.linechat.path) serve --host {n.host6} --port {port}" in n ready on [{n.host6}]:{port} within 10s
            connect [{n.host6}]:{port}
            send line "ping"
            expect nothing for 30ms
            expect line "pong" within 100ms
            n: loss 10%
            repeat 20 {
              send line "ping"
              expect line "pong"
            }
            """, ["--seed", "132"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("from [2001:2:"), "\(output.stdout)")
        #expect((dropped("upstream", in: output.stdout) ?? 0) + (dropped("downstream", in: output.stdout) ?? 0) > 0, "\(output.stdout.suffix(600))")
    }

    /// Readiness looks at the namespace's sockets, once the subject is in it: a listener on the
    /// same port on the probe's host does not make a subject in the namespace ready.
    @Test func readinessLooksInsideTheNamespace() async throws {
        let output = try await run("""
            var port = free-port
            set timeout 5s
            network n
            listen decoy 127.0.0.1:{port}
            spawn server "sh -c 'sleep 0.3; exec \(ProbeProcess.linechat.path) serve --host {n.host} --port {port}'" in n ready on {n.host}:{port} within 10s
            connect {n.host}:{port} timeout 100ms
            send line "ping"
            expect line "pong"
            """)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains(#/listening on [0-9.]+:[0-9]+ after (3[0-9][0-9]|[4-9][0-9][0-9])\.[0-9]+ms/#), "\(output.stdout)")
    }

    /// The namespace routes nothing but the link: an address beyond it is unreachable there,
    /// so no packet of a subject's leaves the machine, whatever the host forwards.
    @Test func theNamespaceRoutesNothingButTheLink() async throws {
        let output = try await run("""
            network n
            spawn beyond "\(Requirement.ip.path!) route get 192.0.2.1" in n
            expect stderr beyond line contains "unreachable"
            expect exit beyond code 2
            spawn gateway "\(Requirement.ip.path!) route get {n.gateway}" in n
            expect stdout gateway line contains "dev tp"
            expect exit gateway code 0
            """)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    }

    /// A client subject in the namespace connects out to the probe's end of the link.
    @Test func aClientInsideTheNamespaceReachesTheGateway() async throws {
        let output = try await run("""
            set timeout 5s
            network n delay 10ms
            listen l {n.gateway}:0
            spawn client "\(ProbeProcess.linechat.path) connect {n.gateway}:{l.port} --name Ann" in n with stdin
            accept c on l
            expect line "iam:Ann"
            send line "Ann has joined"
            expect stdout client line "Ann has joined"
            """)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    }

    @Test func nothingIsLeftAfterAFailedRunCtrlCOrAKill() async throws {
        let failed = try await run("network n\nexpect nothing for 1ms\nconnect {n.host}:1\n")
        #expect(failed.status == 1)
        #expect(try await leftovers().isEmpty)
        for signal in [SIGINT, SIGKILL] {
            try await ProbeProcess.inDirectory(holding: ["s.scn": "set deadline 60s\nnetwork n\nsleep 30s\n"]) { directory in
                let process = try ProbeProcess.start(["run", "s.scn"], in: directory)
                let prefix = "tcpprobe-\(process.processIdentifier)-"
                let made = await Eventually.holds(every: .milliseconds(50)) { ((try? FileManager.default.contentsOfDirectory(atPath: "/run/netns")) ?? []).contains { $0.hasPrefix(prefix) } }
                #expect(made, "the run made no namespace in 10 s")
                kill(process.processIdentifier, signal)
                await ProbeProcess.waitUntilExit(process)
            }
            if signal == SIGKILL {
                // Nothing could remove it; the next run that makes a network does, by the pid in its name.
                #expect(try await !leftovers().isEmpty)
                let next = try await run("network m\n")
                #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
            }
            let left = try await leftovers()
            #expect(left.isEmpty, "after signal \(signal): \(left)")
        }
    }

    /// 100% loss, a delay of 10 minutes and a rate of 1 byte a second each end in a failure
    /// that says what timed out, within the scenario's limits.
    @Test func hostileLinksEndInABoundedFailure() async throws {
        for network in ["network n loss 100%", "network n delay 10m", "network n rate 1/s"] {
            let started = ContinuousClock.now
            let output = try await run("""
                var port = free-port
                set timeout 2s
                set deadline 20s
                network n
                spawn server "\(ProbeProcess.linechat.path) serve --host {n.host} --port {port}" in n ready on {n.host}:{port} within 10s
                connect {n.host}:{port}
                n: clear
                \(network.replacingOccurrences(of: "network n", with: "n:"))
                send line "ping"
                expect line "pong"
                """)
            #expect(output.status == 1, "\(network): \(output.stdout)")
            #expect(output.stdout.contains("timed out after 2s waiting for line \"pong\""), "\(network): \(output.stdout)")
            #expect(ContinuousClock.now - started < .seconds(15), "\(network)")
        }
        #expect(try await leftovers().isEmpty)
    }

    /// Without CAP_NET_ADMIN (root with it dropped from its bounding set), `network` is an
    /// environment error that says what to grant; `check` needs no privilege.
    @Test(.setpriv) func withoutThePrivilegeANetworkIsAnEnvironmentError() async throws {
        try await ProbeProcess.inDirectory(holding: ["s.scn": "network n loss 1%\n"]) { directory in
            let setpriv = URL(fileURLWithPath: Requirement.setpriv.path!)
            let dropped = ["--bounding-set", "-net_admin,-sys_admin", "--inh-caps", "-net_admin,-sys_admin"]
            let run = try await ProbeProcess.run(dropped + ["--", ProbeProcess.binary.path, "run", "s.scn"], in: directory, executable: setpriv)
            #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
            #expect((run.stdout + run.stderr).contains("CAP_NET_ADMIN"), "\(run.stdout)\(run.stderr)")
            let check = try await ProbeProcess.run(dropped + ["--", ProbeProcess.binary.path, "check", "s.scn"], in: directory, executable: setpriv)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        }
    }
}
