import Crypto

/// What decrypting a cipher suite's records takes: its AEAD, key and IV lengths, and the hash
/// of its key schedule. Only the AEAD suites are read: TLS 1.3's three, and TLS 1.2's AES-GCM
/// and ChaCha20-Poly1305.
package struct TLSSuiteParameters: Sendable, Equatable {
    package enum AEAD: Sendable, Equatable { case aesGCM, chaCha20Poly1305 }
    package enum Hash: Sendable, Equatable { case sha256, sha384 }

    package var aead: AEAD
    package var keyLength: Int
    /// TLS 1.3 and TLS 1.2 ChaCha20: the 12-byte IV; TLS 1.2 AES-GCM: the 4-byte salt.
    package var ivLength: Int
    package var hash: Hash

    /// The parameters of `suite` under `version` (0x0303 or 0x0304); nil for a suite not read.
    package init?(suite: UInt16, version: UInt16) {
        switch (version, suite) {
        case (0x0304, 0x1301): self.init(.aesGCM, 16, 12, .sha256)
        case (0x0304, 0x1302): self.init(.aesGCM, 32, 12, .sha384)
        case (0x0304, 0x1303): self.init(.chaCha20Poly1305, 32, 12, .sha256)
        case (0x0303, 0xC02B), (0x0303, 0xC02F), (0x0303, 0x009C): self.init(.aesGCM, 16, 4, .sha256)
        case (0x0303, 0xC02C), (0x0303, 0xC030), (0x0303, 0x009D): self.init(.aesGCM, 32, 4, .sha384)
        case (0x0303, 0xCCA8), (0x0303, 0xCCA9): self.init(.chaCha20Poly1305, 32, 12, .sha256)
        default: return nil
        }
    }

    private init(_ aead: AEAD, _ keyLength: Int, _ ivLength: Int, _ hash: Hash) {
        self.aead = aead
        self.keyLength = keyLength
        self.ivLength = ivLength
        self.hash = hash
    }
}
