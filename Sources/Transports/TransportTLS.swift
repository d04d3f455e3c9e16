import NIOSSL

/// TLS for the NIO transport, on BoringSSL through swift-nio-ssl: a server's certificate
/// chain and key, or what a client trusts.
public enum TransportTLS: Sendable {
    /// A server presenting the certificate chain in the PEM file `certificate`, with `key`.
    case server(certificate: String, key: String)
    /// A client trusting the CA certificates in the PEM file `trusting` (the system's roots
    /// when nil), verifying the server's certificate for `serverName` (sent as SNI) when given.
    case client(trusting: String?, serverName: String?)

    /// The BoringSSL context for this side, a server offering the protocols `alpn` (HTTP/2's
    /// `h2`); throws when a file cannot be read or parsed.
    public func makeContext(alpn: [String] = []) throws -> NIOSSLContext {
        switch self {
        case .server(let certificate, let key):
            let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
            // Read as PEM whatever its name: NIOSSL's `.file` takes a `.key` file for DER.
            let privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
            var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(privateKey))
            configuration.applicationProtocols = alpn
            return try NIOSSLContext(configuration: configuration)
        case .client(let trusting, _):
            var configuration = TLSConfiguration.makeClientConfiguration()
            if let trusting { configuration.trustRoots = .file(trusting) }
            return try NIOSSLContext(configuration: configuration)
        }
    }

    /// The name the client sends as SNI and verifies the certificate for.
    var serverName: String? {
        if case .client(_, let name) = self { return name }
        return nil
    }
}
