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
        // A network's delay, rate and clear share a proxy's words, and load as a network's.
        guard case .networkFault(let networkDelay) = kinds[8], case .delay(let held, nil) = networkDelay.change else {
            Issue.record("not a delay a network takes"); return
        }
        #expect(held.literal == .milliseconds(100))
        guard case .networkFault(let rate) = kinds[9], case .rate(let bytes) = rate.change else { Issue.record("not rate"); return }
        #expect(bytes.literal == 1024 * 1024)
        #expect(kinds[10] == .networkFault(NetworkFault(change: .clear, direction: nil)))
        #expect(NetworkFault(ProxyFault(change: .hold, direction: nil)) == nil)
    }

    /// The shared words are a network's on a name a `network` statement makes, anywhere in the
    /// scenario (in a block too), and a proxy's on any other name.
    @Test func sharedFaultWordsAreTheNetworksOnItsName() throws {
        let statements = try Fixtures.statements("""
            network n
            proxy p 127.0.0.1:0 to 127.0.0.1:1
            p: delay 5ms upstream
            n: delay 5ms upstream
            repeat 2 {
              n: rate 1KiB/s
              p: clear
            }
            """)
        let kinds = statements.map(\.kind)
        guard case .proxyFault(let proxyDelay) = kinds[2], case .delay = proxyDelay.change else { Issue.record("p: delay is not a proxy's"); return }
        guard case .networkFault(let networkDelay) = kinds[3], case .delay(let held, nil) = networkDelay.change else {
            Issue.record("n: delay is not a network's"); return
        }
        #expect(held.literal == .milliseconds(5) && networkDelay.direction == .upstream)
        guard case .repeatBlock(_, let body, _) = kinds[4] else { Issue.record("not repeat"); return }
        guard case .networkFault(let rate) = body[0].kind, case .rate = rate.change else { Issue.record("n: rate is not a network's"); return }
        guard case .proxyFault = body[1].kind else { Issue.record("p: clear is not a proxy's"); return }
    }

    /// A fault only a proxy has, on a network, is an error of the file, its caret on the word.
    @Test(arguments: ["slice 1..3", "hold", "release upstream", "cut after 10 bytes", "reset"])
    func aProxysOwnFaultOnANetworkIsAnErrorOfTheFile(_ fault: String) {
        let diagnostics = Fixtures.load("network n\n  n: \(fault)\n").diagnostics
        let word = String(fault.prefix { $0 != " " })
        #expect(diagnostics.contains { $0.message == "a network's faults are \(NetworkFault.spellings); '\(word)' is a proxy's"
                && $0.location.line == 2 && $0.location.column == 6 && $0.length == word.count }, "\(diagnostics)")
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
