/// What a ServerHello says in the clear: the version and cipher suite agreed on, and the
/// server's random (TLS 1.2 derives its keys from it).
package struct ServerHello: Sendable, Equatable {
    /// 0x0303 for TLS 1.2, 0x0304 for TLS 1.3 (from the supported_versions extension).
    package var version: UInt16
    package var cipherSuite: UInt16
    package var random: [UInt8]

    /// Reads the ServerHello at the start of `handshake` (the fragments of the server's first
    /// handshake records, joined); nil when it is something else or cut short.
    package init?(handshake bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        guard reader.u8() == 2, let length = reader.u24(), let body = reader.bytes(length) else { return nil }
        var hello = ByteReader(body)
        guard var version = hello.u16(), let random = hello.bytes(32), let sessionLength = hello.u8(),
              hello.bytes(Int(sessionLength)) != nil, let suite = hello.u16(), hello.u8() != nil else { return nil }
        if let extensionsLength = hello.u16(), var extensions = hello.bytes(Int(extensionsLength)).map(ByteReader.init) {
            while let type = extensions.u16(), let length = extensions.u16(), let data = extensions.bytes(Int(length)) {
                if type == 43, data.count == 2 { version = UInt16(data[0]) << 8 | UInt16(data[1]) }
            }
        }
        self.version = version
        self.cipherSuite = suite
        self.random = random
    }

    /// "1.2", "1.3", or the number in hex.
    package var versionName: String { TLSVersionName.name(of: version) }
}

/// The names of TLS versions on the wire.
package enum TLSVersionName {
    package static func name(of version: UInt16) -> String {
        switch version {
        case 0x0301: return "1.0"
        case 0x0302: return "1.1"
        case 0x0303: return "1.2"
        case 0x0304: return "1.3"
        default: return "0x" + String(version, radix: 16)
        }
    }
}
