import Crypto
import FoundationEssentials

/// The small glue between the key log and swift-crypto's primitives: TLS 1.3's
/// HKDF-Expand-Label (RFC 8446 §7.1) and TLS 1.2's PRF (RFC 5246 §5), which turn the logged
/// secrets into each direction's record key and IV.
package enum TLSKeySchedule {
    /// A direction's AEAD key and IV (TLS 1.2 AES-GCM: the 4-byte salt).
    package struct TrafficKeys: Sendable {
        package var key: [UInt8]
        package var iv: [UInt8]
    }

    /// TLS 1.3: the key and IV of a traffic secret.
    package static func keys(trafficSecret secret: [UInt8], _ suite: TLSSuiteParameters) -> TrafficKeys {
        TrafficKeys(key: expandLabel(secret, "key", length: suite.keyLength, suite.hash),
                    iv: expandLabel(secret, "iv", length: suite.ivLength, suite.hash))
    }

    /// HKDF-Expand-Label(secret, label, "", length).
    package static func expandLabel(_ secret: [UInt8], _ label: String, context: [UInt8] = [], length: Int, _ hash: TLSSuiteParameters.Hash) -> [UInt8] {
        let fullLabel = Array("tls13 \(label)".utf8)
        let info = [UInt8(length >> 8), UInt8(length & 0xFF), UInt8(fullLabel.count)] + fullLabel + [UInt8(context.count)] + context
        let key = SymmetricKey(data: secret)
        let output: SymmetricKey
        switch hash {
        case .sha256: output = HKDF<SHA256>.expand(pseudoRandomKey: key, info: info, outputByteCount: length)
        case .sha384: output = HKDF<SHA384>.expand(pseudoRandomKey: key, info: info, outputByteCount: length)
        }
        return output.withUnsafeBytes { Array($0) }
    }

    /// TLS 1.2: the client's and the server's keys, from the master secret and both randoms
    /// (the key block of an AEAD suite holds no MAC keys).
    package static func keys(masterSecret: [UInt8], clientRandom: [UInt8], serverRandom: [UInt8], _ suite: TLSSuiteParameters)
        -> (client: TrafficKeys, server: TrafficKeys) {
        let length = 2 * (suite.keyLength + suite.ivLength)
        let block = prf(masterSecret, "key expansion", seed: serverRandom + clientRandom, length: length, suite.hash)
        var offset = 0
        func take(_ count: Int) -> [UInt8] {
            defer { offset += count }
            return Array(block[offset..<offset + count])
        }
        let clientKey = take(suite.keyLength), serverKey = take(suite.keyLength)
        let clientIV = take(suite.ivLength), serverIV = take(suite.ivLength)
        return (TrafficKeys(key: clientKey, iv: clientIV), TrafficKeys(key: serverKey, iv: serverIV))
    }

    /// PRF(secret, label, seed) = P_hash(secret, label + seed), `length` bytes of it.
    package static func prf(_ secret: [UInt8], _ label: String, seed: [UInt8], length: Int, _ hash: TLSSuiteParameters.Hash) -> [UInt8] {
        let seed = Array(label.utf8) + seed
        let key = SymmetricKey(data: secret)
        func hmac(_ data: [UInt8]) -> [UInt8] {
            switch hash {
            case .sha256: return Array(HMAC<SHA256>.authenticationCode(for: data, using: key))
            case .sha384: return Array(HMAC<SHA384>.authenticationCode(for: data, using: key))
            }
        }
        var output: [UInt8] = []
        var a = hmac(seed)
        while output.count < length {
            output += hmac(a + seed)
            a = hmac(a)
        }
        return Array(output.prefix(length))
    }
}
