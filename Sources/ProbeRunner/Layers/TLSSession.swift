import NIOCore
import NIOSSL
import ProbeCapture
import ProbeScript
import X509

/// The TLS layer of one connection: its role, its handlers, and once the handshake is done,
/// what it agreed on (for `assert tls` and the log).
/// Sendable: its variables are set by the handshake's callbacks and read by the steps, all on the
/// connection's event loop, which runs the scenario's steps.
final class TLSSession: @unchecked Sendable {
    let role: Role
    let tap: TLSRecordTap
    let handler: NIOSSLHandler
    let watch: TLSHandshakeWatch
    /// The first certificate the verification refused, for the failure's words.
    let refused: RefusedCertificate

    private(set) var applicationProtocol: String?
    private(set) var version: String?
    private(set) var cipher: String?
    private(set) var peerSubject: String?
    /// Set after the first send: a TLS 1.3 server's first data goes out after its session tickets.
    private var hasSentData = false

    init(role: Role, handler: NIOSSLHandler, refused: RefusedCertificate, on loop: EventLoop) {
        self.role = role
        self.handler = handler
        self.refused = refused
        tap = TLSRecordTap(serverSide: role == .server)
        watch = TLSHandshakeWatch(on: loop, tap: tap)
    }

    /// For a send's log entry, the application data records it went out in, counted from
    /// `before` (the count when the send began): ", in 2 TLS records". On the channel's loop.
    func noteSend(recordsBefore before: Int) -> String {
        let records = tap.applicationRecordsSent - before
        var note = records == 1 ? ", in 1 TLS record" : ", in \(records) TLS records"
        if role == .server, version == "1.3", !hasSentData {
            note += " (with the session tickets a TLS 1.3 server sends before its first data)"
        }
        hasSentData = true
        return note
    }

    /// Puts the layer under the connection's reader, then hands the TLS layer `early`: bytes the
    /// reader took off the socket before the upgrade (a client's hello sent right after the
    /// plaintext answer to STARTTLS). On the channel's event loop.
    func install(on channel: Channel, early: ByteBuffer?) throws {
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(watch, position: .first)
        try pipeline.addHandler(handler, position: .first)
        try pipeline.addHandler(tap, position: .first)
        if let early, early.readableBytes > 0 {
            channel.pipeline.fireChannelRead(early)
            channel.pipeline.fireChannelReadComplete()
        }
    }

    /// Reads what the handshake agreed on; on the channel's event loop once it is done.
    func noteAgreement(applicationProtocol: String?) {
        self.applicationProtocol = applicationProtocol
        // The tap is in the pipeline before the first handshake byte, in either role: it has
        // read the ServerHello by now, with the version and cipher suite agreed on.
        version = tap.serverHello?.versionName
        cipher = tap.serverHello.map { TLSCipherSuite.name(of: $0.cipherSuite) }
        peerSubject = handler.peerCertificate.flatMap(Self.subject)
    }

    /// "TLS 1.3, TLS_AES_128_GCM_SHA256, alpn h2, peer CN=localhost".
    var summary: String {
        var parts = ["TLS \(version ?? "?")"]
        if let cipher { parts.append(cipher) }
        if let applicationProtocol { parts.append("alpn \(applicationProtocol)") }
        if let peerSubject { parts.append("peer \(peerSubject)") }
        return parts.joined(separator: ", ")
    }

    /// A certificate's subject as RFC 4514 writes it (`CN=localhost`).
    static func subject(of certificate: NIOSSLCertificate) -> String? {
        guard let der = try? certificate.toDERBytes(), let parsed = try? Certificate(derEncoded: der) else { return nil }
        return parsed.subject.description
    }

    /// A certificate's issuer, written as `subject(of:)` writes subjects.
    static func issuer(of certificate: NIOSSLCertificate) -> String? {
        guard let der = try? certificate.toDERBytes(), let parsed = try? Certificate(derEncoded: der) else { return nil }
        return parsed.issuer.description
    }
}

/// What the certificate verification refused first, seen in BoringSSL's callback, which does
/// not say why (the failure's words come from the certificate itself). The callback sees the
/// chain from its root down to the leaf.
///
/// It also checks the leaf's name: NIOSSL accepts a certificate whose IP address SAN matches
/// the peer's address even when a host name was asked for, and `sni "chat.test"` must mean
/// that the certificate names chat.test, whoever signed it (a self-signed certificate that is
/// its own trust anchor is a root and the leaf at once). Refused here, the handshake fails
/// with an alert.
/// Written by NIOSSL's verify callback and read by the steps, both on the connection's event
/// loop; its session shares it with nothing else.
final class RefusedCertificate {
    /// The name the peer's certificate must hold (a client that verifies, with a host name).
    let requiredName: String?
    /// The name or address the certificate is checked against, for the failure's words.
    let expectedHost: String?
    /// The certificate the peer presented as its own, once it has sent it: the chain's leaf.
    var peerLeaf: () -> NIOSSLCertificate? = { nil }
    private(set) var certificate: NIOSSLCertificate?
    /// Why the leaf does not hold `requiredName`.
    private(set) var nameMismatch: String?

    init(requiredName: String?, expectedHost: String?) {
        self.requiredName = requiredName
        self.expectedHost = expectedHost
    }

    /// The callback for NIOSSL's handlers: notes, and refuses only a leaf without the name.
    func callback(_ result: NIOSSLVerificationResult, _ certificate: NIOSSLCertificate) -> NIOSSLVerificationResult {
        var result = result
        if result == .certificateVerified, let requiredName, certificate == peerLeaf(), let der = try? certificate.toDERBytes(),
           let parsed = try? Certificate(derEncoded: der) {
            if !CertificateNames.names(of: parsed).contains(where: { CertificateNames.matches($0, host: requiredName) }) {
                nameMismatch = Self.mismatch(parsed, requiredName)
                result = .failed
            }
        }
        if result == .failed, self.certificate == nil { self.certificate = certificate }
        return result
    }

    /// "the certificate names mail.test and 127.0.0.1, not other.test": why `leaf` does not
    /// match the expected host (NIOSSL's own hostname check says only "Couldn't find …").
    func mismatch(of leaf: NIOSSLCertificate?) -> String? {
        guard let expectedHost, let der = try? leaf?.toDERBytes(), let parsed = try? Certificate(derEncoded: der) else { return nil }
        return Self.mismatch(parsed, expectedHost)
    }

    private static func mismatch(_ certificate: Certificate, _ host: String) -> String {
        let held = CertificateNames.names(of: certificate) + CertificateNames.addresses(of: certificate)
        return "the certificate names \(held.isEmpty ? "nothing" : CertificateNames.list(held)), not \(host)"
    }
}
