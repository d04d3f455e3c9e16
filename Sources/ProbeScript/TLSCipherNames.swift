/// The TLS 1.2 cipher suites `tls ciphers "…"` may name, by OpenSSL's names: the ones the TLS
/// library tcpprobe speaks with (BoringSSL) knows. A list is these names joined by colons.
package enum TLSCipherNames {
    package static let known: [String] = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
        "ECDHE-PSK-CHACHA20-POLY1305", "ECDHE-ECDSA-AES128-SHA", "ECDHE-RSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA",
        "ECDHE-RSA-AES256-SHA", "ECDHE-ECDSA-AES128-SHA256", "ECDHE-RSA-AES128-SHA256", "ECDHE-PSK-AES128-CBC-SHA",
        "ECDHE-PSK-AES256-CBC-SHA", "AES128-GCM-SHA256", "AES256-GCM-SHA384", "AES128-SHA", "AES256-SHA",
        "PSK-AES128-CBC-SHA", "PSK-AES256-CBC-SHA", "DES-CBC3-SHA",
    ]

    /// Why `list` is not a list of known names, with the nearest known name when there is one;
    /// nil when it is one.
    package static func problem(in list: String) -> String? {
        let names = list.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard let unknown = names.first(where: { !known.contains($0) }) else { return nil }
        if unknown.isEmpty { return "an empty name in the cipher list \"\(list)\" (names are joined by single colons)" }
        // Suggestion compares in lower case.
        let lowered = known.map { $0.lowercased() }
        let nearest = Suggestion.closest(to: unknown, in: lowered).flatMap(lowered.firstIndex(of:)).map { ": did you mean \"\(known[$0])\"?" } ?? ""
        return "'\(unknown)' is not a TLS 1.2 cipher suite tcpprobe knows\(nearest)"
    }
}
