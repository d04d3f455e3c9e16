/// A TCP segment decoded from a captured packet.
package struct TCPSegment: Sendable, Equatable {
    package struct Flags: OptionSet, Sendable, Hashable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        package static let fin = Flags(rawValue: 0x01)
        package static let syn = Flags(rawValue: 0x02)
        package static let rst = Flags(rawValue: 0x04)
        package static let psh = Flags(rawValue: 0x08)
        package static let ack = Flags(rawValue: 0x10)

        /// `SYN,ACK`, `FIN,ACK`, `PSH,ACK`...
        package var description: String {
            let names: [(Flags, String)] = [(.syn, "SYN"), (.fin, "FIN"), (.rst, "RST"), (.psh, "PSH"), (.ack, "ACK")]
            let shown = names.filter { contains($0.0) }.map(\.1)
            return shown.isEmpty ? "-" : shown.joined(separator: ",")
        }
    }

    package var timestamp: Double
    package var sourceAddress: String
    package var destinationAddress: String
    package var sourcePort: Int
    package var destinationPort: Int
    package var sequence: UInt32
    package var acknowledgement: UInt32
    package var flags: Flags
    /// The raw window field (unscaled); 0 is a zero window whatever the scale.
    package var window: Int
    /// The shift of the window-scale option, on a SYN that carries one.
    package var windowScale: Int?
    /// The payload bytes at hand: all of them, or the first few (a snap length, a read-back prefix).
    package var payload: [UInt8]
    /// How many payload bytes the segment carried on the wire.
    package var length: Int
    /// Only part of the payload is at hand.
    package var isTruncated: Bool { payload.count < length }

    package init(timestamp: Double, sourceAddress: String, destinationAddress: String, sourcePort: Int, destinationPort: Int,
                sequence: UInt32, acknowledgement: UInt32, flags: Flags, window: Int, payload: [UInt8], length: Int? = nil,
                windowScale: Int? = nil) {
        self.timestamp = timestamp
        self.sourceAddress = sourceAddress
        self.destinationAddress = destinationAddress
        self.sourcePort = sourcePort
        self.destinationPort = destinationPort
        self.sequence = sequence
        self.acknowledgement = acknowledgement
        self.flags = flags
        self.window = window
        self.windowScale = windowScale
        self.payload = payload
        self.length = max(payload.count, length ?? payload.count)
    }
}
