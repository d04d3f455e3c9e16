import Testing
@testable import ProbeScript

/// `network NAME [FAULT]...`, the faults on a network (`n: loss 10% burst 3 downstream`), and
/// `spawn … in NAME`: what they parse to, and the errors they give.
@Suite struct NetworkParserTests {
    @Test func statementsParse() throws {
        let statements = try Fixtures.statements("""
            network n loss 2% delay 20ms jitter 5ms downstream
            spawn server "./server --port {port}" in n ready on {n.host}:{port}
            connect {n.host}:{port}
            n: loss 30% burst 3 downstream
            n: reorder 5% gap 10ms
            n: duplicate 1% upstream
            n: partition
            n: heal
            n: delay 100ms
            n: rate 1MiB/s
            n: clear
            listen l {n.gateway}:0
            """)
        let kinds = statements.map(\.kind)
        guard case .network(let name, let faults) = kinds[0] else { Issue.record("not network"); return }
        #expect(name.text == "n" && faults.count == 2)
        guard case .loss(let share, let burst) = faults[0].change else { Issue.record("not loss"); return }
        #expect(share.literal == 2 && burst == nil && faults[0].direction == nil)
        guard case .delay(let delay, let jitter) = faults[1].change else { Issue.record("not delay"); return }
        #expect(delay.literal == .milliseconds(20) && jitter?.literal == .milliseconds(5) && faults[1].direction == .downstream)
        guard case .spawn(let spawn) = kinds[1] else { Issue.record("not spawn"); return }
        #expect(spawn.network?.text == "n" && spawn.unlessGiven == nil)
        guard case .spawn(let suiteDefault) = try Fixtures.statements("spawn s \"x\" ready on 127.0.0.1:{port} unless given url\n")[0].kind else {
            Issue.record("not spawn"); return
        }
        #expect(suiteDefault.unlessGiven?.text == "url")
        guard case .networkFault(let loss) = kinds[3], case .loss(let lossShare, let lossBurst) = loss.change else { Issue.record("not loss"); return }
        #expect(lossShare.literal == 30 && lossBurst?.literal == 3 && loss.direction == .downstream)
        guard case .networkFault(let reorder) = kinds[4], case .reorder(let reorderShare, let gap) = reorder.change else { Issue.record("not reorder"); return }
        #expect(reorderShare.literal == 5 && gap?.literal == .milliseconds(10))
        guard case .networkFault(let duplicate) = kinds[5], case .duplicate(let duplicateShare) = duplicate.change else { Issue.record("not duplicate"); return }
        #expect(duplicateShare.literal == 1 && duplicate.direction == .upstream)
        #expect(kinds[6] == .networkFault(NetworkFault(change: .partition, direction: nil)))
        #expect(kinds[7] == .networkFault(NetworkFault(change: .heal, direction: nil)))
        // A network's delay, rate and clear parse as a proxy's, and read as a network's.
        guard case .proxyFault(let proxyDelay) = kinds[8], let networkDelay = NetworkFault(proxyDelay), case .delay(let held, nil) = networkDelay.change else {
            Issue.record("not a delay a network takes"); return
        }
        #expect(held.literal == .milliseconds(100))
        guard case .proxyFault(let rate) = kinds[9], case .rate(let bytes)? = NetworkFault(rate)?.change else { Issue.record("not rate"); return }
        #expect(bytes.literal == 1024 * 1024)
        guard case .proxyFault(let clear) = kinds[10] else { Issue.record("not clear"); return }
        #expect(NetworkFault(clear) == NetworkFault(change: .clear, direction: nil))
        #expect(NetworkFault(ProxyFault(change: .hold, direction: nil)) == nil)
    }

    @Test func theNetworksAddressesAreKnownAfterIt() {
        #expect(Fixtures.load("network n\nconnect {n.host}:1\nlisten l {n.gateway}:0\nconnect [{n.host6}]:1\nlisten m [{n.gateway6}]:0\n").diagnostics.isEmpty)
        let messages = Fixtures.load("connect {n.host}:1\nnetwork n\n").diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("n.host") }, "\(messages)")
    }

    @Test func badFaultsSayWhatIsWrong() {
        let cases: [(String, String)] = [
            ("network n loss 200%", "'200%' is not a share of the packets"),
            ("network n loss 10", "'10' is not a share of the packets"),
            ("network n loss 5% burst", "expected a number of packets"),
            ("network n slice 1..3", "slice"),
            ("n: reorder", "expected a share of the packets"),
            ("spawn s \"x\" in", "expected a network name"),
            ("spawn s \"x\" in m", "no network named 'm' is made before this step"),
            ("spawn s \"x\" unless url", "expected 'given' after unless"),
            ("n: loss 5%", "no network named 'n' is made before this step"),
            ("n: partition\nnetwork n", "no network named 'n' is made before this step"),
        ]
        for (text, expected) in cases {
            let messages = Fixtures.load(text).diagnostics.map(\.message)
            #expect(messages.contains { $0.contains(expected) }, "\(text): \(messages)")
        }
    }
}
