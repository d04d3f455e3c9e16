import ProbeResults
import ProbeScript

/// Why a TLS step failed: setting TLS up, its handshake, or an `assert tls`.
enum TLSFailure: FailureReason, Equatable {
    /// `ciphers` names what the TLS library does not know: its words.
    case badCiphers(String)
    case clientCAOnClient
    case clientOptionsOnServer
    case unreadableKey(path: String, problem: String)
    case cannotMakeCertificate(error: String)
    case cannotSetUp(error: String)
    case noCertificate(option: String, path: String)
    case unreadableCertificates(option: String, path: String, problem: String)
    case cannotWriteCertificate(error: String)
    /// `explained` is `TLSHandshakeFailure.explain`'s account; `deadline` is set when the
    /// scenario deadline cut the wait.
    case handshakeFailed(explained: String, deadline: Duration?)
    case handshakeSucceeded(summary: String)
    case alreadyTLS(connection: String)
    case notTLS(connection: String)
    /// `assert tls WHAT` found `actual` (nil: none).
    case assertion(what: String, actual: String?)

    var kind: StepFailure.Kind {
        if case .cannotWriteCertificate = self { .environment } else { .assertion }
    }

    var description: String {
        switch self {
        case .badCiphers(let problem): problem
        case .clientCAOnClient: "client-ca is an option of a TLS server, and this side is the client"
        case .clientOptionsOnServer:
            "insecure, ca and sni are options of a TLS client, and this side is the server (client-ca asks clients for certificates)"
        case .unreadableKey(let path, let problem): "cannot read the private key \(path): \(problem)"
        case .cannotMakeCertificate(let error): "cannot make a certificate: \(error)"
        case .cannotSetUp(let error): "cannot set up TLS: \(error)"
        case .noCertificate(let option, let path): "\(option) \(path) holds no PEM certificate"
        case .unreadableCertificates(let option, let path, let problem): "cannot read the certificates of \(option) \(path): \(problem)"
        case .cannotWriteCertificate(let error): "cannot write the run-time certificate: \(error)"
        case .handshakeFailed(let explained, let deadline):
            "TLS handshake failed: \(explained)" + (deadline.map { " (the scenario deadline of \(DurationFormat.short($0)) cut the wait)" } ?? "")
        case .handshakeSucceeded(let summary): "expected the TLS handshake to fail, but it succeeded: \(summary)"
        case .alreadyTLS(let connection): "\(connection) already speaks TLS"
        case .notTLS(let connection): "\(connection) does not speak TLS (open it with 'connect … tls', 'listen … tls' or 'starttls')"
        case .assertion(let what, let actual): "expected TLS \(what), but it is \(actual.map { "\"\($0)\"" } ?? "none")"
        }
    }
}
