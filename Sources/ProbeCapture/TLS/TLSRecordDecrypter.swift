import Crypto
import FoundationEssentials

/// Opens one direction's encrypted records in order, counting their sequence numbers: the
/// nonce and additional data as TLS 1.3 (RFC 8446 §5.2-5.3) and TLS 1.2 (RFC 5288 for AES-GCM,
/// RFC 7905 for ChaCha20-Poly1305) build them, the AEAD itself swift-crypto's.
package struct TLSRecordDecrypter: Sendable {
    package let suite: TLSSuiteParameters
    /// 0x0304 or 0x0303.
    package let version: UInt16
    private var keys: TLSKeySchedule.TrafficKeys
    private var sequence: UInt64 = 0

    package init(keys: TLSKeySchedule.TrafficKeys, suite: TLSSuiteParameters, version: UInt16) {
        self.keys = keys
        self.suite = suite
        self.version = version
    }

    /// A record opened: its real content type (TLS 1.3 hides it inside) and plaintext.
    package struct Opened: Sendable, Equatable {
        package var contentType: UInt8
        package var plaintext: [UInt8]
    }

    /// Opens the record with header `header` (5 bytes) and `fragment`; nil when it does not
    /// authenticate (wrong keys, or a record out of order).
    package mutating func open(header: [UInt8], fragment: [UInt8]) -> Opened? {
        defer { sequence &+= 1 }
        let tagLength = 16
        let nonce: [UInt8]
        var body = fragment[...]
        if version == 0x0303, suite.aead == .aesGCM {
            // RFC 5288: an explicit 8-byte nonce leads the fragment, after the 4-byte salt.
            nonce = keys.iv + fragment.prefix(8)
            body = fragment.dropFirst(8)
        } else {
            nonce = xorSequence(keys.iv)
        }
        guard body.count >= tagLength else { return nil }
        let aad: [UInt8]
        if version == 0x0304 {
            aad = header
        } else {
            let length = body.count - tagLength
            aad = withUnsafeBytes(of: sequence.bigEndian, Array.init) + [header[0], header[1], header[2], UInt8(length >> 8), UInt8(length & 0xFF)]
        }
        let ciphertext = body.dropLast(tagLength), tag = body.suffix(tagLength)
        let key = SymmetricKey(data: keys.key)
        let plaintext: [UInt8]
        do {
            switch suite.aead {
            case .aesGCM:
                let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
                plaintext = Array(try AES.GCM.open(box, using: key, authenticating: aad))
            case .chaCha20Poly1305:
                let box = try ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
                plaintext = Array(try ChaChaPoly.open(box, using: key, authenticating: aad))
            }
        } catch {
            return nil
        }
        guard version == 0x0304 else { return Opened(contentType: header[0], plaintext: plaintext) }
        // TLSInnerPlaintext: the content, its type, then zero padding.
        guard let typeIndex = plaintext.lastIndex(where: { $0 != 0 }) else { return nil }
        return Opened(contentType: plaintext[typeIndex], plaintext: Array(plaintext[..<typeIndex]))
    }

    /// The IV with the sequence number, big-endian and left-padded, XORed into its last 8 bytes.
    private func xorSequence(_ iv: [UInt8]) -> [UInt8] {
        var nonce = iv
        let bytes = withUnsafeBytes(of: sequence.bigEndian, Array.init)
        for index in 0..<8 { nonce[nonce.count - 8 + index] ^= bytes[index] }
        return nonce
    }
}
