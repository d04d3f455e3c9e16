/// One record of a pcap file: when it was seen, and the bytes from the link layer up.
package struct CapturedPacket: Sendable {
    /// Seconds since the epoch, with nanosecond resolution where the file has it.
    package var timestamp: Double
    package var linkType: UInt32
    package var data: [UInt8]
    /// The packet's length on the wire (data may be shorter when the snap length cut it).
    package var originalLength: Int

    package init(timestamp: Double, linkType: UInt32, data: [UInt8], originalLength: Int) {
        self.timestamp = timestamp
        self.linkType = linkType
        self.data = data
        self.originalLength = originalLength
    }
}
