import Crypto
import FoundationEssentials
import NIOSSL
import SwiftASN1
import X509

/// The certificate a TLS server of the probe shows when the scenario names none: self-signed,
/// CN localhost, SAN localhost, 127.0.0.1 and ::1, valid from an hour ago for a week, with a
/// P-256 key. It has no basic constraints, as `openssl req -x509` makes them: BoringSSL refuses
/// a self-signed trust anchor marked CA:FALSE. Made once per process with swift-certificates; its PEM is what `{l.cert}` names.
struct RuntimeCertificate: Sendable {
    let certificatePEM: String
    let certificate: NIOSSLCertificate
    let privateKey: NIOSSLPrivateKey

    /// The one of this process.
    static let shared: Result<RuntimeCertificate, Error> = Result { try RuntimeCertificate() }

    private init() throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("localhost") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - 3600,
            notValidAfter: now + 7 * 24 * 3600,
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                try ExtendedKeyUsage([.serverAuth, .clientAuth])
                SubjectAlternativeNames([
                    .dnsName("localhost"),
                    .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                    .ipAddress(ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 15) + [1]))),
                ])
            },
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        certificatePEM = try certificate.serializeAsPEM().pemString
        self.certificate = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
        privateKey = try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)
    }
}
