import X509

/// The host names a certificate is for, and whether one of them is the name a client asked for,
/// as RFC 6125 says: the DNS SANs (a leading `*` standing for one label), or the common name
/// when there are none.
enum CertificateNames {
    /// The DNS names `certificate` holds, or its common names when it holds no DNS SAN.
    static func names(of certificate: Certificate) -> [String] {
        let alternatives: SubjectAlternativeNames? = (try? certificate.extensions.subjectAlternativeNames) ?? nil
        let dnsNames = (alternatives.map(Array.init) ?? []).compactMap { name -> String? in
            if case .dnsName(let dns) = name { return dns }
            return nil
        }
        if !dnsNames.isEmpty { return dnsNames }
        return certificate.subject.flatMap { $0 }.filter { $0.type == .RDNAttributeType.commonName }.map { "\($0.value)" }
    }

    /// True for a certificate authority's certificate (not a leaf).
    static func isAuthority(_ certificate: Certificate) -> Bool {
        if case .isCertificateAuthority? = try? certificate.extensions.basicConstraints { return true }
        return false
    }

    /// True when `pattern` (a certificate's name) covers `host`.
    static func matches(_ pattern: String, host: String) -> Bool {
        let pattern = pattern.lowercased().trimmingSuffixDot
        let host = host.lowercased().trimmingSuffixDot
        guard pattern.hasPrefix("*.") else { return pattern == host }
        guard let dot = host.firstIndex(of: ".") else { return false }
        return host[host.startIndex..<dot].count > 0 && host[dot...] == pattern.dropFirst()
    }
}

private extension String {
    var trimmingSuffixDot: String { hasSuffix(".") ? String(dropLast()) : self }
}
