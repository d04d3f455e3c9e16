import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority for TLS tests, made with swift-certificates: its root, and leaf
/// certificates it issues with any names and validity (expired ones too, which the openssl
/// command of Debian's 3.0 cannot date), written as PEM files in a folder.
public struct TestAuthority {
    public let directory: URL
    /// The root's PEM file, for `ca "…"`.
    public let rootPath: String
    private let rootName: DistinguishedName
    private let rootKey: P256.Signing.PrivateKey

    /// Makes the root (CN `name`) in `directory`.
    public init(in directory: URL, name: String = "tcpprobe test CA") throws {
        self.directory = directory
        rootKey = P256.Signing.PrivateKey()
        rootName = try DistinguishedName { CommonName(name) }
        let root = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(rootKey.publicKey),
            notValidBefore: Date() - 3600, notValidAfter: Date() + 86_400, issuer: rootName, subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey))
        rootPath = directory.appendingPathComponent("ca.pem").path
        try root.serializeAsPEM().pemString.write(toFile: rootPath, atomically: true, encoding: .utf8)
    }

    /// A leaf for `commonName` (also its DNS name) and 127.0.0.1, issued by the root, or
    /// self-signed; its certificate and key files are `NAME.pem` and `NAME.key`.
    public func issue(_ name: String, commonName: String = "localhost", validFrom: Date = Date() - 3600, until: Date = Date() + 86_400,
                      selfSigned: Bool = false) throws -> (certificate: String, key: String) {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(commonName) }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: validFrom, notValidAfter: until, issuer: selfSigned ? subject : rootName, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                try ExtendedKeyUsage([.serverAuth, .clientAuth])
                SubjectAlternativeNames([.dnsName(commonName), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: Certificate.PrivateKey(selfSigned ? key : rootKey))
        let paths = (directory.appendingPathComponent("\(name).pem").path, directory.appendingPathComponent("\(name).key").path)
        try certificate.serializeAsPEM().pemString.write(toFile: paths.0, atomically: true, encoding: .utf8)
        try key.pemRepresentation.write(toFile: paths.1, atomically: true, encoding: .utf8)
        return paths
    }
}
