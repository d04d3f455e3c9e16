/// One segment of a scenario's connections, or over TLS one record, kept for the HTML ladder
/// diagram.
public struct WireEvent: Sendable {
    /// Seconds since the scenario started, as the step log counts.
    public var offset: Double
    public var connection: String
    public var fromProbe: Bool
    public var flags: String
    public var length: Int
    public var preview: String
    /// A TLS record (drawn over the segment that completed it): what it was, as
    /// "handshake ServerHello" or "application-data 6 bytes "pong\r\n"". Nil for a segment.
    public var record: String?

    public init(offset: Double, connection: String, fromProbe: Bool, flags: String, length: Int, preview: String, record: String? = nil) {
        self.offset = offset
        self.connection = connection
        self.fromProbe = fromProbe
        self.flags = flags
        self.length = length
        self.preview = preview
        self.record = record
    }
}
