import Testing
@testable import ProbeScript

/// The proxy statements: `proxy NAME FRONT to BACK`, its faults with their directions, the
/// watching expects, `NAME.N:` for its Nth connection, and the wire of its legs.
@Suite struct ProxyParserTests {
    @Test func statementsParse() throws {
        let statements = try Fixtures.statements("""
            proxy p 127.0.0.1:0 to 127.0.0.1:{port}
            p: delay 50ms jitter 10ms downstream
            p: rate 16KiB/s upstream
            p: slice 1..8 every 2ms
            p: slice 3..3
            p: hold upstream
            p: release
            p: cut after 100 bytes downstream
            p: reset
            p: clear
            p: expect upstream line "iam:Luke" within 1s
            p.2: expect downstream bytes 4
            p: assert wire to client zero-window
            p.1: assert wire from server lines unsplit
            connect c 127.0.0.1:{p.port}
            """)
        let kinds = statements.map(\.kind)
        guard case .proxy(let name, let front, let back) = kinds[0] else { Issue.record("not proxy"); return }
        #expect(name.text == "p" && front.text == "127.0.0.1:0" && back.text == "127.0.0.1:{port}")
        guard case .proxyFault(let delay) = kinds[1], case .delay(let length, let jitter) = delay.change else { Issue.record("not delay"); return }
        #expect(length.literal == .milliseconds(50) && jitter?.literal == .milliseconds(10) && delay.direction == .downstream)
        guard case .proxyFault(let rate) = kinds[2], case .rate(let bytes) = rate.change else { Issue.record("not rate"); return }
        #expect(bytes.literal == 16 * 1024 && rate.direction == .upstream)
        guard case .proxyFault(let slice) = kinds[3], case .slice(let low, let high, let every) = slice.change else { Issue.record("not slice"); return }
        #expect(low.literal == 1 && high.literal == 8 && every?.literal == .milliseconds(2) && slice.direction == nil)
        #expect(kinds[5] == .proxyFault(ProxyFault(change: .hold, direction: .upstream)))
        guard case .proxyFault(let cutAfter) = kinds[7], case .cutAfter(let count) = cutAfter.change else { Issue.record("not cut after"); return }
        #expect(count.literal == 100 && cutAfter.direction == .downstream)
        #expect(kinds[8] == .proxyFault(ProxyFault(change: .reset, direction: nil)))
        guard case .expectProxied(.upstream, .line(.exact(let line)), let within) = kinds[10] else { Issue.record("not expect upstream"); return }
        #expect(line == Template(literal: "iam:Luke") && within?.literal == .seconds(1))
        // `p.2:` is split once, as it is parsed: the proxy's name and the connection's number.
        #expect(statements[11].connection?.text == "p" && statements[11].linkNumber == 2 && statements[11].prefix == "p.2")
        #expect(statements[13].connection?.text == "p" && statements[13].linkNumber == 1)
        #expect(statements[12].linkNumber == nil && statements[12].prefix == "p")
        guard case .assertWire(let toClient) = kinds[12], case .assertWire(let fromServer) = kinds[13] else { Issue.record("not wire"); return }
        #expect(toClient == WireAssertion(direction: .toClient, property: .zeroWindow) && toClient.direction.phrase == "to client")
        #expect(fromServer.direction == .server && fromServer.direction.phrase == "from server")
    }

    @Test func mistakesAreExplained() {
        let cases: [(String, String)] = [
            ("proxy p 127.0.0.1:0 127.0.0.1:1", "expected 'to' after the front address"),
            ("proxy p 127.0.0.1:0 to 127.0.0.1:1\np: slice 8..1", "'8..1' is not a slice size range N..M (1 <= N <= M)"),
            ("proxy p 127.0.0.1:0 to 127.0.0.1:1\np: slice 0..4", "is not a slice size range"),
            ("proxy p 127.0.0.1:0 to 127.0.0.1:1\np: delay 5ms sideways", "expected one of 'upstream', 'downstream' after the delay fault"),
            ("proxy p 127.0.0.1:0 to 127.0.0.1:1\np: cut after 5", "expected one of 'bytes', 'byte' after cut after N"),
            ("proxy p 127.0.0.1:0 to 127.0.0.1:1\np: expect upstream exit server", "'expect upstream' watches a proxy's traffic"),
            ("proxy p 127.0.0.1:0 to 127.0.0.1:1\np.x: expect upstream any", "'p.x' is not a valid connection name"),
            ("proxy p 127.0.0.1:0 to 127.0.0.1:1\np.99999999999999999999: expect upstream any", "'p.99999999999999999999' is not a valid connection name"),
            ("assert wire to peer fin", "expected one of 'client', 'server' after assert wire to"),
        ]
        for (text, message) in cases {
            let messages = Fixtures.load(text).diagnostics.map(\.message)
            #expect(messages.contains { $0.contains(message) }, "\(text): \(messages)")
        }
    }
}
