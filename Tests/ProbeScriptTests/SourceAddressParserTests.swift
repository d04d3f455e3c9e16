import ProbeScript
import Testing

/// `connect … from`: an address, an address and port, or a range; and the addresses a range
/// hands out in turn.
@Suite struct SourceAddressParserTests {
    @Test func theFormsParse() throws {
        #expect(try SourceAddress.parse("127.0.0.2").get() == .address(host: "127.0.0.2", port: 0))
        #expect(try SourceAddress.parse("127.0.0.2:40000").get() == .address(host: "127.0.0.2", port: 40000))
        #expect(try SourceAddress.parse("::1").get() == .address(host: "::1", port: 0))
        #expect(try SourceAddress.parse("[::1]:40000").get() == .address(host: "::1", port: 40000))
        #expect(try SourceAddress.parse("127.0.0.0/8").get() == .range(network: [127, 0, 0, 0], prefixLength: 8))
        let statements = try Fixtures.statements("connect c {host}:{port} from 127.0.0.0/8 timeout 1s\nconnect {host}:{port} from {src}", variables: ["host", "port", "src"])
        guard case .connect(let step) = statements[0].kind else { Issue.record("not a connect"); return }
        #expect(step.source?.literal == .range(network: [127, 0, 0, 0], prefixLength: 8))
        #expect(step.name?.text == "c" && step.timeout?.text == "1s")
        guard case .connect(let interpolated) = statements[1].kind else { Issue.record("not a connect"); return }
        #expect(interpolated.source?.literal == nil && interpolated.source?.text == "{src}")
    }

    @Test func errorsSayWhatIsMeant() {
        for (text, message, hint) in [
            ("127.0.0.1/8", "'127.0.0.1/8' has bits set past its prefix", "did you mean 127.0.0.0/8?"),
            ("127.0.0.0/33", "'127.0.0.0/33' is not an address range", "a range is ADDRESS/PREFIX, as 127.0.0.0/8 or fd00::/64"),
            ("localhost", "'localhost' is not an IP address to connect from", "from takes 127.0.0.2, 127.0.0.2:40000, [::1]:40000 or a range, 127.0.0.0/8"),
            ("127.0.0.2:99999", "'127.0.0.2:99999' is not an IP address to connect from", "from takes 127.0.0.2, 127.0.0.2:40000, [::1]:40000 or a range, 127.0.0.0/8"),
        ] {
            guard case .failure(let error) = SourceAddress.parse(text) else { Issue.record("\(text) parsed"); continue }
            #expect(error.message == message)
            #expect(error.hint == hint)
        }
        let result = Fixtures.load("connect 127.0.0.1:80 from 10.0.0.1/8\n")
        #expect(result.diagnostics.first.map { "\($0.location.line):\($0.location.column)" } == "1:27")
    }

    @Test func aRangeHandsOutItsHostsInTurn() throws {
        let slash30 = try SourceAddress.parse("127.0.0.0/30").get()
        #expect(slash30.count == 2, "the network and broadcast addresses are left out")
        #expect((0..<5).map(slash30.host(at:)) == ["127.0.0.1", "127.0.0.2", "127.0.0.1", "127.0.0.2", "127.0.0.1"])
        let slash8 = try SourceAddress.parse("127.0.0.0/8").get()
        #expect(slash8.count == 16_777_214)
        #expect(slash8.host(at: 0) == "127.0.0.1" && slash8.host(at: 254) == "127.0.0.255" && slash8.host(at: 255) == "127.0.1.0")
        #expect(slash8.host(at: 16_777_213) == "127.255.255.254" && slash8.host(at: 16_777_214) == "127.0.0.1")
        let single = try SourceAddress.parse("127.0.0.7/32").get()
        #expect(single.count == 1 && single.host(at: 3) == "127.0.0.7")
        let pair = try SourceAddress.parse("127.0.0.6/31").get()
        #expect((0..<3).map(pair.host(at:)) == ["127.0.0.6", "127.0.0.7", "127.0.0.6"])
        let v6 = try SourceAddress.parse("fd00::/120").get()
        #expect(v6.count == 255 && v6.host(at: 0) == "fd00::1" && v6.host(at: 254) == "fd00::ff")
        #expect(slash8.description == "127.0.0.0/8" && v6.description == "fd00::/120")
    }
}
