/// A TCP segment decoded from a captured packet.
public struct TCPSegment: Sendable, Equatable {
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let fin = Flags(rawValue: 0x01)
        public static let syn = Flags(rawValue: 0x02)
        public static let rst = Flags(rawValue: 0x04)
        public static let psh = Flags(rawValue: 0x08)
        public static let ack = Flags(rawValue: 0x10)

        /// `SYN,ACK`, `FIN,ACK`, `PSH,ACK`...
        public var description: String {
            let names: [(Flags, String)] = [(.syn, "SYN"), (.fin, "FIN"), (.rst, "RST"), (.psh, "PSH"), (.ack, "ACK")]
            let shown = names.filter { contains($0.0) }.map(\.1)
            return shown.isEmpty ? "-" : shown.joined(separator: ",")
        }
    }

    public var timestamp: Double
    public var sourceAddress: String
    public var destinationAddress: String
    public var sourcePort: Int
    public var destinationPort: Int
    public var sequence: UInt32
    public var acknowledgement: UInt32
    public var flags: Flags
    /// The raw window field (unscaled); 0 is a zero window whatever the scale.
    public var window: Int
    /// The shift of the window-scale option, on a SYN that carries one.
    public var windowScale: Int?
    /// The payload bytes at hand: all of them, or the first few (a snap length, a read-back prefix).
    public var payload: [UInt8]
    /// How many payload bytes the segment carried on the wire.
    public var length: Int
    /// Only part of the payload is at hand.
    public var isTruncated: Bool { payload.count < length }

    public init(timestamp: Double, sourceAddress: String, destinationAddress: String, sourcePort: Int, destinationPort: Int,
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
