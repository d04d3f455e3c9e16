import Testing
@testable import ProbeCapture

/// The glue between the key log and swift-crypto, on published vectors: TLS 1.3's
/// HKDF-Expand-Label (RFC 8448 §3, the server's handshake keys) and TLS 1.2's PRF (the
/// P_SHA256 vector the TLS working group circulated).
@Suite struct TLSKeyScheduleTests {
    static func bytes(_ hex: String) -> [UInt8] {
        TLSKeyMaterial.bytes(fromHex: hex.filter { !$0.isWhitespace })!
    }

    @Test func tls13TrafficKeysMatchRFC8448() {
        let secret = Self.bytes("b6 7b 7d 69 0c c1 6c 4e 75 e5 42 13 cb 2d 37 b4 e9 c9 12 bc de d9 10 5d 42 be fd 59 d3 91 ad 38")
        let suite = TLSSuiteParameters(suite: 0x1301, version: 0x0304)!
        let keys = TLSKeySchedule.keys(trafficSecret: secret, suite)
        #expect(keys.key == Self.bytes("3f ce 51 60 09 c2 17 27 d0 f2 e4 e8 6e e4 03 bc"))
        #expect(keys.iv == Self.bytes("5d 31 3e b2 67 12 76 ee 13 00 0b 30"))
    }

    @Test func tls12PRFMatchesTheSHA256Vector() {
        let output = TLSKeySchedule.prf(Self.bytes("9b be 43 6b a9 40 f0 17 b1 76 52 84 9a 71 db 35"), "test label",
                                        seed: Self.bytes("a0 ba 9f 93 6c da 31 18 27 a6 f7 96 ff d5 19 8c"), length: 100, .sha256)
        #expect(output.count == 100)
        #expect(Array(output.prefix(16)) == Self.bytes("e3 f2 29 ba 72 7b e1 7b 8d 12 26 20 55 7c d4 53"))
        #expect(Array(output.suffix(4)) == Self.bytes("87 34 7b 66"))
    }

    @Test func keyLogLinesAreReadByLabelAndClientRandom() {
        let material = TLSKeyMaterial(lines: ["# comment", "", "CLIENT_RANDOM 0a0b 0c0d", "SERVER_TRAFFIC_SECRET_0 0A0B ff", "BROKEN 0g 00"])
        #expect(material.secret("CLIENT_RANDOM", clientRandom: [10, 11]) == [12, 13])
        #expect(material.secret("SERVER_TRAFFIC_SECRET_0", clientRandom: [10, 11]) == [255])
        #expect(material.secret("CLIENT_RANDOM", clientRandom: [10, 12]) == nil)
    }
}
