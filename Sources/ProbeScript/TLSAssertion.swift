/// `assert tls version = 1.3 | alpn = "h2" | cipher /RE/ | peer subject /RE/`: a property of the
/// current connection's TLS session, once its handshake is done.
package enum TLSAssertion: Sendable, Hashable {
    case version(TLSOptions.Version)
    /// The protocol the handshake agreed on; `""` asserts that none was.
    case applicationProtocol(Template)
    /// The cipher suite's IANA name, such as `TLS_AES_128_GCM_SHA256`.
    case cipher(RegexLiteral)
    /// The peer certificate's subject, such as `CN=localhost`.
    case peerSubject(RegexLiteral)

    package var templates: [Template] {
        switch self {
        case .version: return []
        case .applicationProtocol(let name): return [name]
        case .cipher(let regex), .peerSubject(let regex): return [regex.template]
        }
    }
}
