/// The side of a connection an end plays: the one that connected (client) or the one that
/// accepted (server). TLS and WebSocket rules depend on it, and `import --as` picks it.
package enum Role: String, Sendable, CaseIterable {
    case client, server
}
