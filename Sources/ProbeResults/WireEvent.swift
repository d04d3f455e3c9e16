/// One segment of a scenario's connections, kept for the HTML ladder diagram.
public struct WireEvent: Sendable {
    /// Seconds since the scenario started, as the step log counts.
    public var offset: Double
    public var connection: String
    public var fromProbe: Bool
    public var flags: String
    public var length: Int
    public var preview: String

    public init(offset: Double, connection: String, fromProbe: Bool, flags: String, length: Int, preview: String) {
        self.offset = offset
        self.connection = connection
        self.fromProbe = fromProbe
        self.flags = flags
        self.length = length
        self.preview = preview
    }
}
