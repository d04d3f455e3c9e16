import Testing
@testable import ProbeScript

/// The TLS statements: options after `tls` and `starttls`, `accept … expect tls-failure`,
/// `assert tls`, `{l.port}` and `{l.cert}`, and the mistakes they refuse.
@Suite struct TLSParserTests {
    private func kind(_ text: String, variables: Set<String> = ["host", "port"]) throws -> StatementKind {
        try #require(try Fixtures.statements(text, variables: variables).first).kind
    }

    @Test func connectReadsEveryTLSOptionAndTheConnectOptionsAfterThem() throws {
        let text = #"connect c 127.0.0.1:{port} tls ca "ca.pem" sni "chat.test" alpn "h2", "http/1.1" version 1.2 ciphers "ECDHE-RSA-AES128-SHA:{more}" cert "c.pem" key "c.key" timeout 2s expect tls-failure"#
        guard case .connect(let step) = try kind(text, variables: ["port", "more"]) else { Issue.record("not connect"); return }
        let tls = try #require(step.tls)
        #expect(tls.ca == Template(literal: "ca.pem"))
        #expect(tls.serverName == Template(literal: "chat.test"))
        #expect(tls.applicationProtocols == [Template(literal: "h2"), Template(literal: "http/1.1")])
        #expect(tls.version?.literal == .v1_2)
        #expect(tls.ciphers?.renderString { $0 == "more" ? "AES256-SHA" : nil } == "ECDHE-RSA-AES128-SHA:AES256-SHA")
        #expect(tls.certificate == Template(literal: "c.pem"))
        #expect(tls.key == Template(literal: "c.key"))
        #expect(!tls.insecure)
        #expect(step.timeout?.literal == .seconds(2))
        #expect(step.expectedFailure == .tlsFailure)
        guard case .connect(let plain) = try kind("connect 127.0.0.1:{port} timeout 1s") else { Issue.record("not connect"); return }
        #expect(plain.tls == nil)
    }

    /// A literal cipher list is checked name by name; the first unknown one is the error.
    @Test(arguments: [("AES128-SHA256", "'AES128-SHA256' is not a TLS 1.2 cipher suite tcpprobe knows"),
                      ("ECDHE-RSA-AES128-SHA::AES256-SHA", "an empty name in the cipher list"),
                      ("ECDHE-RSA-AES128-GCM-SHA265", "did you mean \"ECDHE-RSA-AES128-GCM-SHA256\"?")])
    func anUnknownCipherNameIsAnError(_ list: String, _ message: String) throws {
        #expect(throws: (any Error).self) { try kind("connect 127.0.0.1:{port} tls ciphers \"\(list)\"") }
        #expect(TLSCipherNames.problem(in: list)?.contains(message) == true, "\(TLSCipherNames.problem(in: list) ?? "no problem")")
        #expect(TLSCipherNames.problem(in: "ECDHE-RSA-AES128-SHA:AES256-SHA") == nil)
    }

    @Test func listenAcceptStartTLSAndAssert() throws {
        let statements = try Fixtures.statements("""
            listen l 127.0.0.1:0 tls client-ca "ca.pem" version 1.3
            connect c 127.0.0.1:{l.port} tls ca "{l.cert}"
            accept s on l within 2s expect tls-failure
            starttls insecure sni "mail.test"
            assert tls version = 1.3
            assert tls alpn = "h2"
            assert tls cipher /AES_128_GCM/
            assert tls peer subject /CN=localhost/
            """)
        guard case .listen(let name, _, let tls?) = statements[0].kind else { Issue.record("not listen tls"); return }
        #expect(name.text == "l")
        #expect(tls.clientCA == Template(literal: "ca.pem"))
        #expect(tls.version?.literal == .v1_3)
        guard case .accept(_, _, let within, let expectTLSFailure, nil) = statements[2].kind else { Issue.record("not accept"); return }
        #expect(within?.literal == .seconds(2))
        #expect(expectTLSFailure)
        guard case .startTLS(let options, _) = statements[3].kind else { Issue.record("not starttls"); return }
        #expect(options.insecure)
        #expect(options.serverName == Template(literal: "mail.test"))
        #expect(statements[4].kind == .assertTLS(.version(.v1_3)))
        #expect(statements[5].kind == .assertTLS(.applicationProtocol(Template(literal: "h2"))))
        guard case .assertTLS(.cipher(let cipher)) = statements[6].kind, case .assertTLS(.peerSubject(let subject)) = statements[7].kind else {
            Issue.record("not assert tls cipher/peer subject"); return
        }
        #expect(cipher.pattern == "AES_128_GCM")
        #expect(subject.pattern == "CN=localhost")
    }

    @Test func recordWireChecks() throws {
        guard case .assertWire(let records) = try kind("assert wire from probe records >= 3"),
              case .records(.greaterOrEqual, let count) = records.property else { Issue.record("not records"); return }
        #expect(count.literal == 3)
        #expect(records.readsPlaintext)
        guard case .assertWire(let line) = try kind(#"assert wire from peer line "x" in 1 record"#),
              case .lineInOneSegment(.exact(let text)) = line.property else { Issue.record("not line in 1 record"); return }
        #expect(text == Template(literal: "x"))
        guard case .assertWire(let fin) = try kind("assert wire from peer fin") else { Issue.record("not fin"); return }
        #expect(!fin.readsPlaintext)
    }

    /// A listener's variables exist only after a `listen` names it, `{l.cert}` only with TLS.
    @Test func listenerVariables() {
        #expect(Fixtures.load("listen l 127.0.0.1:0\nconnect 127.0.0.1:{l.port}").diagnostics.isEmpty)
        #expect(Fixtures.load("connect 127.0.0.1:{l.port}").diagnostics.map(\.message) == ["unknown variable 'l.port'"])
        #expect(Fixtures.load("listen l 127.0.0.1:0\nconnect 127.0.0.1:0 tls ca \"{l.cert}\"").diagnostics.map(\.message) == ["unknown variable 'l.cert'"])
    }

    @Test func mistakesAreExplained() {
        let cases: [(String, String)] = [
            (#"connect 127.0.0.1:1 tls cert "c.pem""#, "'cert' and 'key' go together"),
            (#"connect 127.0.0.1:1 tls client-ca "ca.pem""#, "'client-ca' is not an option of connect ... tls"),
            (#"listen l 127.0.0.1:0 tls insecure"#, "'insecure' is not an option of listen ... tls"),
            ("connect 127.0.0.1:1 tls version 1.4", "'1.4' is not a TLS version tcpprobe speaks"),
            ("connect 127.0.0.1:1 expect tls-failure", "'expect tls-failure' needs 'tls' before it"),
            (#"connect 127.0.0.1:1 tls insecure ca "ca.pem""#, "'insecure' verifies nothing, so 'ca' would be ignored"),
            ("assert tls version 1.3", "expected '=' after assert tls version"),
            ("assert tls colour", "expected one of 'version', 'alpn', 'cipher', 'peer' after assert tls"),
            ("listen l 127.0.0.1:0 tsl", "expected 'tls' after the address"),
            ("accept s on l expect eof", "expected 'tls-failure' after accept ... expect"),
        ]
        for (text, message) in cases {
            let messages = Fixtures.load(text).diagnostics.map(\.message)
            #expect(messages.contains { $0.contains(message) }, "\(text): \(messages)")
        }
    }
}
