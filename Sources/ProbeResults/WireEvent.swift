/// One segment of a scenario's connections, or one TLS record or WebSocket frame, kept for the
/// HTML ladder diagram.
public struct WireEvent: Sendable {
    /// Seconds since the scenario started, as the step log counts.
    public var offset: Double
    public var connection: String
    public var fromProbe: Bool
    public var flags: String
    public var length: Int
    public var preview: String
    /// A TLS record or a WebSocket frame (drawn over the segment that completed it): what it
    /// was, as "TLS handshake ServerHello" or "WebSocket text fin 5 bytes masked "hello"". Nil
    /// for a segment.
    public var unit: String?
    /// The leg of a proxy it crossed: the front leg (client and proxy) or the back leg (proxy
    /// and server), drawn on a third lifeline; nil for the probe's own connections, where
    /// `fromProbe` means from the probe (on a leg: from the proxy).
    public var proxyLeg: ProxyLeg?

    public enum ProxyLeg: String, Sendable { case front, back }

    public init(offset: Double, connection: String, fromProbe: Bool, flags: String, length: Int, preview: String, unit: String? = nil,
                proxyLeg: ProxyLeg? = nil) {
        self.offset = offset
        self.connection = connection
        self.fromProbe = fromProbe
        self.flags = flags
        self.length = length
        self.preview = preview
        self.unit = unit
        self.proxyLeg = proxyLeg
    }
}
