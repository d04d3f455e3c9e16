/// The client's random in its ClientHello: the key log files secrets under it.
package struct ClientHello: Sendable, Equatable {
    package var random: [UInt8]

    /// Reads the ClientHello at the start of `handshake` (the fragments of the client's first
    /// handshake records, joined); nil when it is something else or cut short.
    package init?(handshake bytes: [UInt8]) {
        var reader = ByteReader(bytes)
        guard reader.u8() == 1, reader.u24() != nil, reader.u16() != nil, let random = reader.bytes(32) else { return nil }
        self.random = random
    }
}
