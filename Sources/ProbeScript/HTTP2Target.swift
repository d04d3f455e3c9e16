/// Where `connect h2://HOST:PORT/PATH` (or `h2s://`) speaks HTTP/2: with prior knowledge in
/// cleartext, or over TLS with ALPN `h2`; the path is the one the log names.
package struct HTTP2Target: Sendable, Hashable {
    /// `h2s://`: over TLS (the connect's `tls` options apply, ALPN `h2` added).
    package var secure: Bool
    package var path: Template

    package init(secure: Bool, path: Template) {
        self.secure = secure
        self.path = path
    }
}
