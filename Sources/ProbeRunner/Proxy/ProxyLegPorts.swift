import ProbeResults

/// One leg of a proxy's connection, by its ports: what the report's ladder keeps of it.
struct ProxyLegPorts {
    /// "proxy 'p' connection 2".
    let label: String
    let leg: WireEvent.ProxyLeg
    /// The proxy's port on this leg.
    let proxyPort: Int
    /// The port at the leg's other end: the client's (front) or the server's (back).
    let otherPort: Int
}
