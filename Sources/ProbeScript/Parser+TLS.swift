/// Parsers for TLS: the options after `tls` and `starttls`, and `assert tls`.
extension Parser {
    /// `expect tls-failure` after a step's TLS options, or nothing: the handshake must fail.
    mutating func expectTLSFailure(after context: String) throws -> Bool {
        guard take("expect") else { return false }
        try keyword(["tls-failure"], after: "\(context) … expect")
        return true
    }

    /// TLS options from `allowed`, in any order, up to the first word that is not one (the
    /// statement's other options may follow).
    mutating func tlsOptions(_ allowed: [Grammar.TLSOption], after context: String) throws -> TLSOptions {
        var options = TLSOptions()
        var certificateToken: Token?
        while let word = current.word, let option = Grammar.TLSOption(rawValue: word) {
            let token = advance()
            guard allowed.contains(option) else {
                throw failure("'\(word)' is not an option of \(context)", at: token, hint: "its options: " + allowed.map(\.rawValue).joined(separator: " "))
            }
            switch option {
            case .insecure: options.insecure = true
            case .ca: options.ca = try string("a PEM file of trusted certificates")
            case .sni: options.serverName = try string("a server name")
            case .alpn:
                options.applicationProtocols = [try string("a protocol name")]
                while current.kind == .comma {
                    advance()
                    options.applicationProtocols.append(try string("a protocol name"))
                }
            case .version:
                options.version = try argument("a TLS version tcpprobe speaks", hint: "version 1.2 or version 1.3", TLSOptions.Version.init(rawValue:))
            case .ciphers:
                let list = current
                options.ciphers = try string("OpenSSL's names of TLS 1.2 cipher suites, such as \"ECDHE-RSA-AES128-GCM-SHA256\"")
                if let literal = options.ciphers?.literalBytes, let problem = TLSCipherNames.problem(in: String(decoding: literal, as: UTF8.self)) {
                    throw failure(problem, at: list, hint: "ciphers \"ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256\"")
                }
            case .cert:
                certificateToken = token
                options.certificate = try string("a PEM certificate file")
            case .key: options.key = try string("a PEM private key file")
            case .clientCA: options.clientCA = try string("a PEM file of client certificate roots")
            }
        }
        if (options.certificate == nil) != (options.key == nil) {
            let at = certificateToken ?? current
            throw failure("'cert' and 'key' go together: the certificate and its private key", at: at, hint: "cert \"server.pem\" key \"server.key\"")
        }
        if options.insecure, options.ca != nil {
            throw failure("'insecure' verifies nothing, so 'ca' would be ignored: choose one", at: current)
        }
        return options
    }

    /// `assert wire …`, `assert tls …`, `assert copies …` or `assert latency …`.
    mutating func parseAssert() throws -> StatementKind {
        if current.word == "copies" || current.word == "latency" { return .assertParallel(try parseParallelAssertion()) }
        guard current.word == "tls" else { return .assertWire(try parseWireAssertion()) }
        advance()
        switch try keyword(Grammar.TLSProperty.self, after: "assert tls") {
        case .version:
            try keyword(["="], after: "assert tls version")
            let token = try word("a TLS version")
            guard let version = TLSOptions.Version(rawValue: token.word!) else {
                throw failure("'\(token.word!)' is not a TLS version tcpprobe speaks", at: token, hint: "assert tls version = 1.3")
            }
            return .assertTLS(.version(version))
        case .alpn:
            try keyword(["="], after: "assert tls alpn")
            return .assertTLS(.applicationProtocol(try string("a protocol name")))
        case .cipher:
            return .assertTLS(.cipher(try regex()))
        case .peer:
            try keyword(["subject"], after: "assert tls peer")
            return .assertTLS(.peerSubject(try regex()))
        }
    }
}
