import NIOCore
import NIOSSL
import ProbeScript

/// A TLS layer's settings for one role, with its files read: what `TLSOptions` say once the
/// step that uses them resolves their variables. It makes the BoringSSL context, and the
/// session of each connection.
struct TLSSetup: Sendable {
    var role: Role
    var insecure = false
    /// The roots the peer's certificate must chain to; nil for the system's (client) or for
    /// no client certificate (server).
    var trustRoots: [NIOSSLCertificate]?
    /// The name sent as SNI and verified; nil verifies an IP address against the IP SANs.
    var serverName: String?
    /// The IP address a client without `serverName` verifies (for the failure's words).
    var verifiedAddress: String?
    var applicationProtocols: [String] = []
    var version: TLSOptions.Version?
    /// OpenSSL's names of the TLS 1.2 suites allowed; nil for BoringSSL's defaults.
    var ciphers: String?
    var certificateChain: [NIOSSLCertificate] = []
    var privateKey: NIOSSLPrivateKey?
    /// How long `close` waits for the peer's close_notify after sending its own.
    static let shutdownTimeout = TimeAmount.milliseconds(500)

    init(role: Role) {
        self.role = role
    }

    /// The BoringSSL context; every secret it makes goes to `keyLog`.
    func makeContext(keyLog: TLSKeyLog) throws -> NIOSSLContext {
        var configuration = role == .client ? TLSConfiguration.makeClientConfiguration() : TLSConfiguration.makeServerConfiguration(
            certificateChain: certificateChain.map { .certificate($0) }, privateKey: .privateKey(privateKey!))
        switch role {
        case .client:
            configuration.certificateVerification = insecure ? .none : .fullVerification
            if let trustRoots { configuration.trustRoots = .certificates(trustRoots) }
            if let privateKey {
                configuration.certificateChain = certificateChain.map { .certificate($0) }
                configuration.privateKey = .privateKey(privateKey)
            }
        case .server:
            if let trustRoots {
                configuration.certificateVerification = .noHostnameVerification
                configuration.trustRoots = .certificates(trustRoots)
            }
        }
        switch version {
        case .v1_2?:
            configuration.minimumTLSVersion = .tlsv12
            configuration.maximumTLSVersion = .tlsv12
        case .v1_3?:
            configuration.minimumTLSVersion = .tlsv13
        case nil:
            configuration.minimumTLSVersion = .tlsv12
        }
        if let ciphers { configuration.cipherSuites = ciphers }
        configuration.applicationProtocols = applicationProtocols
        configuration.shutdownTimeout = Self.shutdownTimeout
        configuration.keyLogCallback = { keyLog.add($0) }
        return try NIOSSLContext(configuration: configuration)
    }

    /// A connection's TLS layer, not yet installed.
    func makeSession(_ context: NIOSSLContext, on loop: EventLoop) throws -> TLSSession {
        let verifies = role == .client && !insecure
        let refused = RefusedCertificate(requiredName: verifies ? serverName : nil, expectedHost: verifies ? serverName ?? verifiedAddress : nil)
        let handler: NIOSSLHandler
        switch role {
        case .client:
            handler = try NIOSSLClientHandler(context: context, serverHostname: serverName, verificationCallback: refused.callback)
        case .server:
            handler = try NIOSSLServerHandler(context: context, verificationCallback: refused.callback)
        }
        refused.peerLeaf = { [weak handler] in handler?.peerCertificate }
        return TLSSession(role: role, handler: handler, refused: refused, on: loop)
    }
}
