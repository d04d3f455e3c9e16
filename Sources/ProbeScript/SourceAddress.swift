#if canImport(Glibc)
import Glibc
#endif

/// `connect … from SOURCE`: the address (and port) a connection binds before it connects, or a
/// range of addresses in CIDR form, of which each connection takes the next.
package enum SourceAddress: Sendable, Hashable, CustomStringConvertible {
    /// An IP address, with a port or with 0 for the kernel's pick.
    case address(host: String, port: Int)
    /// `127.0.0.0/8`: the network's bytes (4 or 16, host bits zero) and its prefix length.
    case range(network: [UInt8], prefixLength: Int)

    /// Parses `127.0.0.2`, `127.0.0.2:40000`, `::1`, `[::1]:40000` or `127.0.0.0/8`; a range
    /// with host bits set is an error that names the network meant.
    package static func parse(_ text: String) -> Result<SourceAddress, ParseError> {
        if let slash = text.firstIndex(of: "/") {
            let host = String(text[..<slash])
            guard let bytes = bytes(of: host), let prefix = Int(text[text.index(after: slash)...]),
                  (0...bytes.count * 8).contains(prefix) else {
                return .failure(ParseError(message: "'\(text)' is not an address range", hint: "a range is ADDRESS/PREFIX, as 127.0.0.0/8 or fd00::/64"))
            }
            let network = masked(bytes, prefix)
            guard network == bytes else {
                let meant = SourceAddress.range(network: network, prefixLength: prefix)
                return .failure(ParseError(message: "'\(text)' has bits set past its prefix", hint: "did you mean \(meant)?"))
            }
            return .success(.range(network: network, prefixLength: prefix))
        }
        if bytes(of: text) != nil { return .success(.address(host: text, port: 0)) }
        if let address = Address.parse(text), bytes(of: address.host) != nil {
            return .success(.address(host: address.host, port: address.port))
        }
        return .failure(ParseError(message: "'\(text)' is not an IP address to connect from",
                                   hint: "from takes 127.0.0.2, 127.0.0.2:40000, [::1]:40000 or a range, 127.0.0.0/8"))
    }

    package struct ParseError: Error, Sendable {
        package var message: String
        package var hint: String
    }

    /// How many addresses the range hands out: all but the network's own (and, for IPv4, its
    /// broadcast) when there are more than two; one for an address.
    package var count: Int {
        guard case .range(let network, let prefix) = self else { return 1 }
        let hostBits = network.count * 8 - prefix
        guard hostBits < 62 else { return Int.max }
        let all = 1 << hostBits
        guard all > 2 else { return all }
        return network.count == 4 ? all - 2 : all - 1
    }

    /// The `index`th address the range hands out (counted from 0, wrapping round), as text.
    package func host(at index: Int) -> String {
        guard case .range(var bytes, let prefix) = self else {
            if case .address(let host, _) = self { return host }
            return ""
        }
        let hostBits = bytes.count * 8 - prefix
        var offset = UInt64(index % count) + (hostBits >= 2 ? 1 : 0)
        var position = bytes.count - 1
        while offset > 0, position >= 0 {
            let sum = UInt64(bytes[position]) + (offset & 0xFF)
            bytes[position] = UInt8(sum & 0xFF)
            offset = (offset >> 8) + (sum >> 8)
            position -= 1
        }
        return Self.text(of: bytes)
    }

    package var description: String {
        switch self {
        case .address(let host, let port): return port == 0 ? host : Address(host: host, port: port).description
        case .range(let network, let prefix): return "\(Self.text(of: network))/\(prefix)"
        }
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 address; nil for anything else.
    static func bytes(of text: String) -> [UInt8]? {
        for (family, size) in [(AF_INET, 4), (AF_INET6, 16)] {
            var buffer = [UInt8](repeating: 0, count: 16)
            if buffer.withUnsafeMutableBytes({ inet_pton(family, text, $0.baseAddress) }) == 1 { return Array(buffer.prefix(size)) }
        }
        return nil
    }

    static func masked(_ bytes: [UInt8], _ prefix: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let kept = max(0, min(8, prefix - index * 8))
            return kept == 8 ? byte : byte & ~(UInt8(0xFF) >> kept)
        }
    }

    static func text(of bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) }
        return String(cString: buffer)
    }
}
