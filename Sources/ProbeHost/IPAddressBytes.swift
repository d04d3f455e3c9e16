#if canImport(Glibc)
import Glibc
#endif

/// An IP address as the kernel's socket tables hold it, to tell which listeners take
/// connections to it.
struct IPAddressBytes {
    let family: Int32
    /// IPv4 in the first 4 bytes, IPv6 in all 16.
    let bytes: SIMD16<UInt8>

    /// nil when `text` is no IPv4 or IPv6 address (a host name).
    init?(_ text: String) {
        var bytes = SIMD16<UInt8>()
        for family in [AF_INET, AF_INET6] where withUnsafeMutableBytes(of: &bytes, { inet_pton(family, text, $0.baseAddress) }) == 1 {
            self.family = family
            self.bytes = bytes
            return
        }
        return nil
    }

    /// True when a listener bound as `entry` takes connections to this address.
    func isReached(through entry: SocketTable.Entry) -> Bool {
        let local = entry.localAddress
        let zero = SIMD16<UInt8>()
        if entry.family == AF_INET6 {
            if local == zero { return family == AF_INET6 || !entry.v6Only } // [::]: IPv4 too unless v6-only
            if family == AF_INET6 { return local == bytes }
            // ::ffff:a.b.c.d, an IPv4 address on an IPv6 socket
            let mapped = (0..<10).allSatisfy { local[$0] == 0 } && local[10] == 0xFF && local[11] == 0xFF
            return mapped && (0..<4).allSatisfy { local[12 + $0] == bytes[$0] }
        }
        guard family == AF_INET else { return false }
        let any = (0..<4).allSatisfy { local[$0] == 0 }
        return any || (0..<4).allSatisfy { local[$0] == bytes[$0] }
    }
}
