import NIOSSL

/// A TLS layer's settings and the context made from them.
struct TLSContext: Sendable {
    var setup: TLSSetup
    var context: NIOSSLContext
    /// The PEM file of the run-time certificate, when the server shows it.
    var runtimeCertificatePath: String?
}
