import FoundationEssentials
import NIOCore
import NIOSSL
import ProbeCapture
#if canImport(Glibc)
import Glibc
#endif
import ProbeScript

/// Why a handshake failed, in words: the alert the peer sent, the verification error (read
/// from the refused certificate, as BoringSSL's callback does not say), what a peer that does
/// not speak TLS sent instead, and the peer certificate's subject when one came.
enum TLSHandshakeFailure {
    /// The handshake did not end within the step's time.
    struct TimedOut: Error {}

    /// The connection closed before the handshake ended, with no error from the TLS layer.
    struct Closed: Error {}

    /// `error` explained for `session`'s connection.
    static func explain(_ error: Error, _ session: TLSSession, waited: Duration) -> String {
        var words = reason(error, session, waited: waited)
        if let leaf = session.handler.peerCertificate ?? session.refused.certificate, let subject = TLSSession.subject(of: leaf), !words.contains(subject) {
            words += " (peer certificate: \(subject))"
        }
        return words
    }

    private static func reason(_ error: Error, _ session: TLSSession, waited: Duration) -> String {
        let tap = session.tap
        if !tap.peerSpeaksTLS || (error is TimedOut && !tap.firstPeerBytes.isEmpty && tap.recordsReceived == 0) {
            return "the peer does not speak TLS: it answered \("\"" + ByteEscaper.escape(tap.firstPeerBytes) + "\"")"
        }
        if let alert = tap.plainAlertFromPeer, alert != 0 {
            return refusal(TLSAlert.name(of: alert))
        }
        if error is Closed { return "the peer closed the connection during the handshake" }
        if error is TimedOut {
            let heard = tap.firstPeerBytes.isEmpty ? "the peer sent nothing" : "the peer stopped answering"
            return "no TLS handshake within \(DurationFormat.short(waited)): \(heard)"
        }
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return session.refused.mismatch(of: session.handler.peerCertificate) ?? "the certificate does not match the host name"
        }
        if let error = error as? IOError, error.errnoCode == ECONNRESET {
            return "the peer reset the connection (RST) during the handshake"
        }
        guard case NIOSSLError.handshakeFailed(let underlying)? = error as? NIOSSLError else { return "\(error)" }
        let text = "\(underlying)"
        if text.contains("EOF during") {
            return "the peer closed the connection during the handshake"
        }
        let token = reasonToken(in: text)
        switch token {
        case "CERTIFICATE_VERIFY_FAILED"? where session.refused.nameMismatch != nil:
            return session.refused.nameMismatch!
        case "CERTIFICATE_VERIFY_FAILED"?:
            return "certificate verification failed: " + verificationReason(session.refused.certificate ?? session.handler.peerCertificate)
        case let token? where token.contains("ALERT_"):
            return refusal(token[token.firstRange(of: "ALERT_")!.upperBound...].lowercased())
        case "UNSUPPORTED_PROTOCOL"?:
            let chosen = tap.serverHello.map { "the peer chose TLS \($0.versionName)" } ?? "the peer's TLS version"
            return "\(chosen), which this side does not take (it speaks TLS 1.2 and 1.3, or the one `version` names)"
        case "PEER_DID_NOT_RETURN_A_CERTIFICATE"?:
            return "the client sent no certificate, and this server requires one (client-ca)"
        case "WRONG_VERSION_NUMBER"?, "UNEXPECTED_RECORD"?, "HTTP_REQUEST"?, "HTTPS_PROXY_REQUEST"?:
            return "the peer does not speak TLS: it answered \("\"" + ByteEscaper.escape(tap.firstPeerBytes) + "\"")"
        case let token?:
            return String(token.lowercased().map { $0 == "_" ? " " : $0 })
        case nil:
            return text
        }
    }

    private static func refusal(_ alert: String) -> String {
        "the peer refused the handshake with the alert \(alert)" + (alert == "certificate_required" ? " (it requires a client certificate)" : "")
    }

    /// BoringSSL's reason code in an error's text: `CERTIFICATE_VERIFY_FAILED` in
    /// `error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at …`.
    private static func reasonToken(in text: String) -> String? {
        guard let range = text.firstRange(of: "OPENSSL_internal:") else { return nil }
        let token = text[range.upperBound...].prefix { $0.isUppercase || $0.isNumber || $0 == "_" }
        return token.isEmpty ? nil : String(token)
    }

    /// Why a certificate was refused, from what it says: expired, not yet valid, self-signed,
    /// or issued by someone not trusted.
    private static func verificationReason(_ certificate: NIOSSLCertificate?) -> String {
        guard let certificate else { return "the peer's certificate is not trusted" }
        let now = time(nil)
        let subject = TLSSession.subject(of: certificate) ?? "?"
        if certificate.notValidAfter < now {
            return "the certificate \(subject) has expired (not valid after \(date(certificate.notValidAfter)))"
        }
        if certificate.notValidBefore > now {
            return "the certificate \(subject) is not valid yet (not before \(date(certificate.notValidBefore)))"
        }
        if let issuer = issuer(of: certificate), issuer == subject {
            return "the certificate \(subject) is self-signed and not trusted (trust it with ca \"FILE\", or skip verification with insecure)"
        }
        return "the certificate \(subject) is issued by \(issuer(of: certificate) ?? "?"), which is not trusted (name its root with ca \"FILE\")"
    }

    private static func issuer(of certificate: NIOSSLCertificate) -> String? {
        TLSSession.issuer(of: certificate)
    }

    private static func date(_ time: time_t) -> String {
        "\(Date(timeIntervalSince1970: Double(time)))"
    }
}
