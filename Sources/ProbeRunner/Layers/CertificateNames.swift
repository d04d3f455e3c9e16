import NIOCore
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

    /// The IP addresses a certificate's SANs name, written as usual (`127.0.0.1`, `::1`).
    static func addresses(of certificate: Certificate) -> [String] {
        let alternatives: SubjectAlternativeNames? = (try? certificate.extensions.subjectAlternativeNames) ?? nil
        return (alternatives.map(Array.init) ?? []).compactMap { name -> String? in
            guard case .ipAddress(let octets) = name else { return nil }
            return (try? SocketAddress(packedIPAddress: ByteBuffer(bytes: octets.bytes), port: 0))?.ipAddress
        }
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
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
