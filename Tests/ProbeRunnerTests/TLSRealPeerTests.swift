import Foundation
import ProbeHost
import ProbeResults
import TestSupport
import Testing

/// TLS against real peers the tests start: `openssl s_server -crlf` (the sample's test server),
/// nginx with `ssl`, and curl as the client of `listen … tls`; each also refused at the
/// handshake for a reason it names.
@Suite struct TLSRealPeerTests {
    /// `openssl s_server -crlf`: lines both ways, then refusals: an expired certificate, a
    /// self-signed one without `insecure`, and a client certificate required but not given.
    @Test(.openssl) func openSSLServer() async throws {
        let folder = try TLSTests.Certificates()
        let authority = folder.authority
        let good = try authority.issue("good")
        let port = try #require(FreePort.pick())
        let server = "spawn server \"openssl s_server -accept 127.0.0.1:{p} -cert {cert} -key {key} -crlf -quiet {extra}\" with stdin ready on 127.0.0.1:{p} within 10s"
        let roundTrip = try await ScenarioHarness.run("""
            set timeout 5s
            \(server)
            connect 127.0.0.1:{p} tls ca "{ca}"
            send line "iam:Leia"
            expect stdout server line "iam:Leia"
            input server line "msg:hello from s_server"
            expect line "msg:hello from s_server"
            assert tls peer subject /CN=localhost/
            """, variables: ["p": String(port), "cert": good.certificate, "key": good.key, "ca": authority.rootPath, "extra": ""])
        roundTrip.expectPassed()

        let expired = try authority.issue("expired", validFrom: Date() - 7200, until: Date() - 3600)
        let selfSigned = try authority.issue("self", selfSigned: true)
        let cases: [(certificate: (certificate: String, key: String), extra: String, client: String, reason: String)] = [
            (expired, "", "ca \"{ca}\"", "certificate verification failed: the certificate CN=localhost has expired"),
            (selfSigned, "", "", "certificate verification failed: the certificate CN=localhost is self-signed and not trusted"),
            (good, "-Verify 1", "ca \"{ca}\" version 1.2", "the peer refused the handshake with the alert handshake_failure"),
            // A server of TLS 1.1 only: the probe offers 1.2 at least, by default (the server
            // refuses the hello) and under `version 1.2` (the probe refuses the server's 1.1).
            (good, "-tls1_1 -cipher DEFAULT:@SECLEVEL=0", "ca \"{ca}\"", "the peer refused the handshake with the alert protocol_version"),
            (good, "-tls1_1 -cipher DEFAULT:@SECLEVEL=0", "ca \"{ca}\" version 1.2",
             "the peer chose TLS 1.1, which this side does not take (it speaks TLS 1.2 and 1.3, or the one `version` names)"),
        ]
        for (certificate, extra, client, reason) in cases {
            let port = try #require(FreePort.pick())
            let refused = try await ScenarioHarness.run("""
                set timeout 5s
                \(server)
                connect 127.0.0.1:{p} tls \(client)
                """, variables: ["p": String(port), "cert": certificate.certificate, "key": certificate.key, "ca": authority.rootPath, "extra": extra])
            refused.expectFailure(line: 3, containing: "TLS handshake failed: \(reason)")
        }
    }

    /// `ciphers` offers only the TLS 1.2 suites it names (OpenSSL's names): against
    /// `openssl s_server`, each of two lists agrees on its suite; a list the server shares no
    /// suite with fails the handshake, and a name BoringSSL does not know (from a variable:
    /// a literal one is a `check` error) fails the step naming it.
    @Test(.openssl) func ciphersOfferOnlyTheSuitesTheyName() async throws {
        let folder = try TLSTests.Certificates()
        let good = try folder.authority.issue("good")
        let server = "spawn server \"openssl s_server -accept 127.0.0.1:{p} -cert {cert} -key {key} -quiet {extra}\" ready on 127.0.0.1:{p} within 10s"
        let cases: [(ciphers: String, extra: String, outcome: String)] = [
            ("ECDHE-ECDSA-AES128-SHA", "", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA"),
            ("ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES256-GCM-SHA384", "-cipher ECDHE-ECDSA-AES256-GCM-SHA384", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"),
            ("ECDHE-ECDSA-AES128-SHA", "-cipher ECDHE-ECDSA-AES256-GCM-SHA384", "TLS handshake failed: the peer refused the handshake with the alert handshake_failure"),
            ("ECDHE-ECDSA-AES128-SHA:NO-SUCH-SUITE", "", "'NO-SUCH-SUITE' is not a TLS 1.2 cipher suite tcpprobe knows"),
        ]
        for (ciphers, extra, outcome) in cases {
            let port = try #require(FreePort.pick())
            let result = try await ScenarioHarness.run("""
                set timeout 5s
                \(server)
                connect 127.0.0.1:{p} tls ca "{ca}" version 1.2 ciphers "{list}"
                assert tls cipher /^\(outcome)$/
                """, variables: ["p": String(port), "cert": good.certificate, "key": good.key, "ca": folder.authority.rootPath, "extra": extra, "list": ciphers])
            if outcome.hasPrefix("TLS_") {
                result.expectPassed()
            } else {
                result.expectFailure(line: 3, containing: outcome)
            }
        }
    }

    /// `sni` names the host the certificate must hold, whoever signed it: a self-signed
    /// certificate (CA:TRUE; DNS mail.test, IP 127.0.0.1) that is its own trust anchor, as
    /// `openssl req -x509` makes, passes `sni "mail.test"` and fails `sni "other.test"`, though
    /// its IP address SAN matches the address connected to.
    @Test(.openssl) func sniOnASelfSignedAuthority() async throws {
        let folder = try TLSTests.Certificates()
        let (pem, key) = try TestCertificate.make(in: folder.directory, commonName: "mail.test", names: "DNS:mail.test,IP:127.0.0.1")
        for (name, passes) in [("mail.test", true), ("other.test", false)] {
            let port = try #require(FreePort.pick())
            let result = try await ScenarioHarness.run("""
                set timeout 5s
                spawn server "openssl s_server -accept 127.0.0.1:{p} -cert {cert} -key {key} -crlf -quiet" with stdin ready on 127.0.0.1:{p} within 10s
                connect 127.0.0.1:{p} tls ca "{cert}" sni "{name}"
                """, variables: ["p": String(port), "cert": pem, "key": key, "name": name])
            if passes {
                result.expectPassed()
            } else {
                result.expectFailure(line: 3, containing: "TLS handshake failed: the certificate names mail.test and 127.0.0.1, not other.test")
            }
        }
        let port = try #require(FreePort.pick())
        let refused = try await ScenarioHarness.run("""
            set timeout 5s
            spawn server "openssl s_server -accept 127.0.0.1:{p} -cert {cert} -key {key} -crlf -quiet" with stdin ready on 127.0.0.1:{p} within 10s
            connect 127.0.0.1:{p} tls ca "{cert}" sni "other.test" expect tls-failure
            """, variables: ["p": String(port), "cert": pem, "key": key])
        refused.expectPassed()
    }

    /// postfix, where both verdicts were wrong: STARTTLS with `sni` naming another host fails
    /// (its certificate, self-signed, names mail.test and 127.0.0.1), and with `sni "mail.test"`
    /// passes; after QUIT postfix sends close_notify and closes its socket, so the probe's
    /// answer draws a RST from its kernel, which `no rst` does not count against postfix.
    @Test(.postfix, .root) func postfixStartTLS() async throws {
        let folder = try TLSTests.Certificates()
        let root = folder.directory
        for name in ["etc", "queue", "data"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let owner = try #require(getpwnam("postfix"), "postfix's user").pointee
        #expect(chown(root.appendingPathComponent("data").path, owner.pw_uid, owner.pw_gid) == 0)
        let (certificate, key) = try TestCertificate.make(in: root.appendingPathComponent("etc"), commonName: "mail.test", names: "DNS:mail.test,IP:127.0.0.1")
        let port = try #require(FreePort.pick())
        try """
            compatibility_level = 3.6
            queue_directory = \(root.path)/queue
            data_directory = \(root.path)/data
            inet_interfaces = 127.0.0.1
            inet_protocols = ipv4
            myhostname = mail.test
            mydestination =
            smtpd_tls_cert_file = \(certificate)
            smtpd_tls_key_file = \(key)
            smtpd_tls_security_level = may
            maillog_file = /dev/stdout

            """.write(to: root.appendingPathComponent("etc/main.cf"), atomically: true, encoding: .utf8)
        let services = ["pickup unix n - n 60 1 pickup", "cleanup unix n - n - 0 cleanup", "qmgr unix n - n 300 1 qmgr",
                        "tlsmgr unix - - n 1000? 1 tlsmgr", "rewrite unix - - n - - trivial-rewrite", "bounce unix - - n - 0 bounce",
                        "defer unix - - n - 0 bounce", "trace unix - - n - 0 bounce", "verify unix - - n - 1 verify",
                        "flush unix n - n 1000? 0 flush", "proxymap unix - - n - - proxymap", "anvil unix - - n - 1 anvil",
                        "scache unix - - n - 1 scache", "postlog unix-dgram n - n - 1 postlogd"]
        try (["127.0.0.1:\(port) inet n - n - - smtpd"] + services).joined(separator: "\n").appending("\n")
            .write(to: root.appendingPathComponent("etc/master.cf"), atomically: true, encoding: .utf8)
        // postfix's master starts a session of its own, out of the spawned process group that
        // the scenario's end stops: stop it by its pid file.
        defer {
            let pidFile = root.appendingPathComponent("queue/pid/master.pid").path
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                kill(pid, SIGKILL)
            }
        }
        let result = try await ScenarioHarness.runCapturing("""
            set timeout 5s
            spawn postfix "postfix -c \(root.path)/etc start-fg" ready on 127.0.0.1:\(port) within 20s
            connect a 127.0.0.1:\(port)
            expect line /^220 /
            send line "EHLO probe.test"
            expect eventually line /^250 /
            send line "STARTTLS"
            expect line /^220 /
            starttls ca "\(certificate)" sni "other.test" expect tls-failure
            connect b 127.0.0.1:\(port)
            expect line /^220 /
            send line "EHLO probe.test"
            expect eventually line /^250 /
            send line "STARTTLS"
            expect line /^220 /
            starttls ca "\(certificate)" sni "mail.test"
            send line "QUIT"
            expect line /^221 /
            expect eof
            close
            sleep 100ms
            assert wire from peer no rst
            """)
        result.expectPassed()
        #expect(result.log.contains { $0.message.contains("the TLS handshake failed as expected: the certificate names mail.test and 127.0.0.1, not other.test") },
                "\(result.log.map(\.message))")
    }

    /// curl, trusting `{l.cert}`, gets its HTTPS answer from the probe; without it, curl refuses
    /// the run-time certificate and the probe's accept says so.
    @Test(.curl) func curlAsTheClientOfListenTLS() async throws {
        let trusted = try await ScenarioHarness.run("""
            set timeout 5s
            listen l 127.0.0.1:0 tls alpn "http/1.1"
            spawn client "curl -sS --cacert {l.cert} https://127.0.0.1:{l.port}/hello"
            accept s on l
            expect line "GET /hello HTTP/1.1"
            expect until "\\r\\n\\r\\n" max 4KiB
            send "HTTP/1.1 200 OK\\r\\nContent-Length: 16\\r\\nConnection: close\\r\\n\\r\\nhello over TLS\\r\\n"
            expect stdout client line "hello over TLS"
            expect exit client code 0
            assert tls alpn = "http/1.1"
            """)
        trusted.expectPassed()
        let untrusted = try await ScenarioHarness.run("""
            set timeout 5s
            listen l 127.0.0.1:0 tls
            spawn client "curl -sS https://127.0.0.1:{l.port}/hello"
            accept s on l expect tls-failure
            expect exit client code 60
            """)
        untrusted.expectPassed()
        #expect(untrusted.log.contains { $0.message.contains("failed as expected: the peer refused the handshake with the alert unknown_ca") },
                "\(untrusted.log.map(\.message))")
    }

    /// nginx with `ssl`: an HTTPS request with `ca` and `sni`; a wrong `sni` or `ca` fails the
    /// verification with a clear message.
    @Test(.nginx) func nginxWithSSL() async throws {
        let nginx = try #require(Requirement.nginx.path)
        let folder = try TLSTests.Certificates()
        let directory = folder.directory.path
        let server = try folder.authority.issue("server")
        let port = try #require(FreePort.pick())
        try NginxSite.write(in: directory, port: port, tls: server)
        let stranger = try TestAuthority(in: try TLSTests.subfolder(of: folder.directory), name: "stranger CA")
        let spawn = NginxSite.spawn(nginx)
        let variables = ["dir": directory, "port": String(port), "ca": folder.authority.rootPath, "stranger": stranger.rootPath]
        let request = try await ScenarioHarness.run("""
            \(spawn)
            connect 127.0.0.1:{port} tls ca "{ca}" sni "localhost"
            send "GET /hello.txt HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n"
            expect line "HTTP/1.1 200 OK"
            expect eventually line /^content-length: 17$/i
            expect until "\\r\\n\\r\\n" max 4KiB
            expect "hello from nginx\\n"
            """, variables: variables)
        request.expectPassed()
        let wrongName = try await ScenarioHarness.run("""
            \(spawn)
            connect 127.0.0.1:{port} tls ca "{ca}" sni "chat.test"
            """, variables: variables)
        wrongName.expectFailure(line: 2, containing: "the certificate names localhost and 127.0.0.1, not chat.test")
        let wrongRoot = try await ScenarioHarness.run("""
            \(spawn)
            connect 127.0.0.1:{port} tls ca "{stranger}"
            """, variables: variables)
        wrongRoot.expectFailure(line: 2, containing: "the certificate CN=localhost is issued by CN=tcpprobe test CA, which is not trusted")
    }
}
