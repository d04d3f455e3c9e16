/// The names of TLS alerts (RFC 8446 §6), as the log and `show` print them.
package enum TLSAlert {
    /// The alert that ends a side's sending (RFC 8446 §6.1).
    package static let closeNotify: UInt8 = 0

    package static func name(of code: UInt8) -> String {
        names[code] ?? "alert \(code)"
    }

    private static let names: [UInt8: String] = [
        0: "close_notify", 10: "unexpected_message", 20: "bad_record_mac", 22: "record_overflow",
        40: "handshake_failure", 42: "bad_certificate", 43: "unsupported_certificate", 44: "certificate_revoked",
        45: "certificate_expired", 46: "certificate_unknown", 47: "illegal_parameter", 48: "unknown_ca",
        49: "access_denied", 50: "decode_error", 51: "decrypt_error", 70: "protocol_version",
        71: "insufficient_security", 80: "internal_error", 86: "inappropriate_fallback", 90: "user_canceled",
        109: "missing_extension", 110: "unsupported_extension", 112: "unrecognized_name",
        113: "bad_certificate_status_response", 115: "unknown_psk_identity", 116: "certificate_required",
        120: "no_application_protocol",
    ]
}
