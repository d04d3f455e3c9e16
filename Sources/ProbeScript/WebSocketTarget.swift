/// Where `connect ws://HOST:PORT/PATH` (or `wss://`) upgrades to WebSocket: the request's path,
/// the subprotocols it offers (`protocol "p"`) and the headers it adds (`header "K: V"`).
package struct WebSocketTarget: Sendable, Hashable {
    /// `wss://`: over TLS (the connect's `tls` options apply; without them, `tls` verifying
    /// against the system's roots).
    package var secure: Bool
    package var path: Template
    package var protocols: [Template] = []
    package var headers: [Template] = []

    package init(secure: Bool, path: Template) {
        self.secure = secure
        self.path = path
    }

    package var templates: [Template] { [path] + protocols + headers }
}
