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

    /// Splits `ws://HOST:PORT/PATH` written at `location` into its target and the address
    /// text (HOST:PORT) with where that starts; nil when `text` is not a WebSocket URL.
    package static func split(_ text: String, at location: SourceLocation) -> (target: WebSocketTarget, address: String, addressAt: SourceLocation)? {
        let secure: Bool
        if text.hasPrefix("ws://") { secure = false } else if text.hasPrefix("wss://") { secure = true } else { return nil }
        let rest = text.dropFirst(secure ? 6 : 5)
        let addressEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let path = addressEnd == rest.endIndex ? "/" : String(rest[addressEnd...])
        let start = location.advanced(by: secure ? 6 : 5)
        return (WebSocketTarget(secure: secure, path: Template.word(path, at: start.advanced(by: rest.distance(from: rest.startIndex, to: addressEnd)))),
                String(rest[..<addressEnd]), start)
    }
}
