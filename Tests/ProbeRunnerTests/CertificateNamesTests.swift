import Crypto
import FoundationEssentials
@testable import ProbeRunner
import SwiftASN1
import Testing
import X509

/// Which names a certificate is for, as `sni` checks them: its DNS SANs, else its common name;
/// a leading `*` stands for exactly one label.
@Suite struct CertificateNamesTests {
    @Test func wildcardsCoverOneLabel() {
        #expect(CertificateNames.matches("chat.test", host: "CHAT.test."))
        #expect(!CertificateNames.matches("chat.test", host: "other.test"))
        #expect(CertificateNames.matches("*.example.com", host: "a.example.com"))
        #expect(!CertificateNames.matches("*.example.com", host: "example.com"))
        #expect(!CertificateNames.matches("*.example.com", host: "a.b.example.com"))
        #expect(!CertificateNames.matches("*.example.com", host: ".example.com"))
        #expect(!CertificateNames.matches("*.localhost", host: "localhost"))
    }

    private func certificate(commonName: String, dnsNames: [String], addresses: [[UInt8]] = []) throws -> Certificate {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(commonName) }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: Date() - 60, notValidAfter: Date() + 60, issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                if !dnsNames.isEmpty || !addresses.isEmpty {
                    SubjectAlternativeNames(dnsNames.map { .dnsName($0) } + addresses.map { .ipAddress(ASN1OctetString(contentBytes: $0[...])) })
                }
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
    }

    /// As OpenSSL's host check: the DNS SANs when there is one, whatever IP SANs stand beside
    /// them; the common name when there is none, IP SANs or not.
    @Test(arguments: [([], [[127, 0, 0, 1]], ["cn.test"]), (["a.test"], [[127, 0, 0, 1]], ["a.test"]),
                      ([], [[127, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]], ["cn.test"]),
                      (["a.test", "*.b.test"], [], ["a.test", "*.b.test"]), ([], [], ["cn.test"])] as [([String], [[UInt8]], [String])])
    func onlyIPAddressesLeaveTheCommonNameToMatch(_ dnsNames: [String], _ addresses: [[UInt8]], _ names: [String]) throws {
        let certificate = try certificate(commonName: "cn.test", dnsNames: dnsNames, addresses: addresses)
        #expect(CertificateNames.names(of: certificate) == names)
        #expect(CertificateNames.addresses(of: certificate).count == addresses.count)
    }

    @Test func namesAreTheDNSNamesElseTheCommonName() throws {
        #expect(CertificateNames.names(of: try certificate(commonName: "cn.test", dnsNames: ["a.test", "b.test"])) == ["a.test", "b.test"])
        #expect(CertificateNames.names(of: try certificate(commonName: "cn.test", dnsNames: [])) == ["cn.test"])
    }
}
