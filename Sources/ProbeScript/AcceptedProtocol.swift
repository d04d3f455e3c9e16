/// What the probe speaks as the server on an accepted connection, beyond bytes.
package enum AcceptedProtocol: Sendable, Hashable {
    /// `websocket [protocol "P"]`: answers the client's upgrade, offering these subprotocols.
    case webSocket([Template])
    /// `http2`: takes the client's connection preface and, unless `set http2 handshake off`,
    /// exchanges SETTINGS (HTTP/2's server role, prior knowledge or ALPN h2 over TLS).
    case http2

    var templates: [Template] {
        switch self {
        case .webSocket(let protocols): return protocols
        case .http2: return []
        }
    }
}
