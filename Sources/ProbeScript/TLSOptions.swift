/// What `tls` on `connect` or `listen`, and `starttls`, say about the TLS layer. Paths and
/// names are templates, resolved (and files read) when the step runs.
package struct TLSOptions: Sendable, Hashable {
    /// `version 1.2|1.3`: the one version the handshake may agree on.
    package enum Version: String, Sendable, Hashable, CaseIterable {
        case v1_2 = "1.2"
        case v1_3 = "1.3"
    }

    /// `insecure`: the server's certificate is not verified.
    package var insecure = false
    /// `ca "FILE"`: the PEM roots the peer's certificate must chain to (instead of the system's).
    package var ca: Template?
    /// `sni "NAME"`: the server name sent, and the name the certificate must match.
    package var serverName: Template?
    /// `alpn "h2", "http/1.1"`: the application protocols offered (client) or accepted (server).
    package var applicationProtocols: [Template] = []
    package var version: Argument<Version>?
    /// `ciphers "ECDHE-RSA-AES128-SHA:…"`: the TLS 1.2 cipher suites offered or accepted, by
    /// OpenSSL's names (TLS 1.3's suites are not affected).
    package var ciphers: Template?
    /// `cert "FILE" key "FILE"`: this side's certificate chain and private key, PEM.
    package var certificate: Template?
    package var key: Template?
    /// `client-ca "FILE"`: a server requires a client certificate chaining to these roots.
    package var clientCA: Template?

    package init() {}

    /// The options `connect … tls` takes, `listen … tls` takes, and `starttls` (either role) takes.
    static let clientOptions: [Grammar.TLSOption] = [.insecure, .ca, .sni, .alpn, .version, .ciphers, .cert, .key]
    static let serverOptions: [Grammar.TLSOption] = [.cert, .key, .clientCA, .alpn, .version, .ciphers]
    static let allOptions = Grammar.TLSOption.allCases

    package var templates: [Template] {
        [ca, serverName, ciphers, certificate, key, clientCA].compactMap { $0 } + applicationProtocols + version.templates
    }
}
