/// One segment of a scenario's connections, or one TLS record or WebSocket frame, kept for the
/// HTML ladder diagram.
package struct WireEvent: Sendable {
    /// Seconds since the scenario started, as the step log counts.
    package var offset: Double
    package var connection: String
    package var fromProbe: Bool
    package var flags: String
    package var length: Int
    package var preview: String
    /// A TLS record or a WebSocket frame (drawn over the segment that completed it): what it
    /// was, as "TLS handshake ServerHello" or "WebSocket text fin 5 bytes masked "hello"". Nil
    /// for a segment.
    package var unit: String?
    /// The leg of a proxy it crossed: the front leg (client and proxy) or the back leg (proxy
    /// and server), drawn on a third lifeline; nil for the probe's own connections, where
    /// `fromProbe` means from the probe (on a leg: from the proxy).
    package var proxyLeg: ProxyLeg?

    /// The segment's TCP numbers, for the time–sequence graph; nil for a record or frame.
    package var tcp: TCPNumbers?

    /// The network whose link dropped the segment (`network NAME`): the probe's was captured
    /// and then dropped, the peer's never reached the probe. Nil for a segment that got through.
    package var droppedBy: String?

    package enum ProxyLeg: String, Sendable { case front, back }

    /// Sequence and acknowledgement numbers relative to each side's first (as Wireshark shows
    /// them), and the window advertised, in bytes (scaled).
    package struct TCPNumbers: Sendable, Equatable {
        package var sequence: Int
        /// Nil when the segment carries no ACK.
        package var acknowledgement: Int?
        package var window: Int

        package init(sequence: Int, acknowledgement: Int?, window: Int) {
            self.sequence = sequence
            self.acknowledgement = acknowledgement
            self.window = window
        }
    }

    package init(offset: Double, connection: String, fromProbe: Bool, flags: String, length: Int, preview: String, unit: String? = nil,
                proxyLeg: ProxyLeg? = nil, tcp: TCPNumbers? = nil, droppedBy: String? = nil) {
        self.offset = offset
        self.connection = connection
        self.fromProbe = fromProbe
        self.flags = flags
        self.length = length
        self.preview = preview
        self.unit = unit
        self.proxyLeg = proxyLeg
        self.tcp = tcp
        self.droppedBy = droppedBy
    }
}
