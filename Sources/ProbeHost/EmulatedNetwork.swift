import CSpawnExtras
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A network a scenario declares: a namespace of its own, joined to the probe by a point-to-point
/// link of two TUN devices whose packets `PacketLink` forwards. Each network takes a /30 of
/// 198.18.0.0/15 (set aside for benchmarking): the probe's end is the gateway, the namespace's
/// end the host. The namespace's only route is the link's peer route to the gateway (no
/// default route): what a subject sends anywhere else goes nowhere, so even on a host that
/// forwards packets none leaves the machine.
package final class EmulatedNetwork: Sendable {
    package let namespace: NetworkNamespace
    /// The subject's address, in the namespace.
    package let host: String
    /// The probe's end of the link, on the probe's host.
    package let gateway: String
    /// The same two ends in IPv6, in 2001:2::/48 (set aside for benchmarking too); nil where
    /// the host has IPv6 turned off.
    package let ipv6: (host: String, gateway: String)?
    /// The link's device beside the probe, where a capture sees the subject's packets.
    package let probeDevice: String
    package let link: PacketLink

    private init(namespace: NetworkNamespace, host: String, gateway: String, ipv6: (host: String, gateway: String)?, probeDevice: String, link: PacketLink) {
        self.namespace = namespace
        self.host = host
        self.gateway = gateway
        self.ipv6 = ipv6
        self.probeDevice = probeDevice
        self.link = link
    }

    /// What a process needs to make one: CAP_NET_ADMIN for the devices and routes, and
    /// CAP_SYS_ADMIN for the namespace's mount. nil when it has both.
    package static var missingPrivilege: String? {
        guard let status = try? WholeFile.bytes(atPath: "/proc/self/status") else { return nil }
        let line = String(decoding: status, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("CapEff:") }
        guard let hex = line?.split(separator: "\t").last, let capabilities = UInt64(hex.trimmingPrefix("0x"), radix: 16) else { return nil }
        let missing = [(12, "CAP_NET_ADMIN"), (21, "CAP_SYS_ADMIN")].filter { capabilities & (1 << $0.0) == 0 }.map(\.1)
        guard !missing.isEmpty else { return nil }
        return "a network needs \(missing.joined(separator: " and ")) (to make a namespace, TUN devices and routes): run tcpprobe as root "
            + "(in CI, sudo), or in a container started with --cap-add NET_ADMIN --cap-add SYS_ADMIN"
    }

    /// Makes network `name`, the `index`th of this process, its link's random faults seeded by `seed`.
    package static func make(name: String, index: Int, seed: UInt64) async throws -> EmulatedNetwork {
        NetworkNamespace.removeStale()
        let subnet = try freeSubnet(from: (Int(getpid()) &* 8 &+ index) % subnets)
        let (gateway, host) = (address(subnet, 1), address(subnet, 2))
        let devices = (probe: "tp\(getpid())-\(index)p", subject: "tp\(getpid())-\(index)s")
        let namespace = try await NetworkNamespace.make(for: name, index: index)
        var descriptors: [Int32] = []
        let ipv6Ends = (host: "2001:2:0:\(String(subnet, radix: 16))::2", gateway: "2001:2:0:\(String(subnet, radix: 16))::1")
        var ipv6: (host: String, gateway: String)?
        do {
            for device in [devices.probe, devices.subject] {
                let descriptor = tun_open(device)
                guard descriptor >= 0 else {
                    throw NetworkNamespace.Failure(description: "cannot open the TUN device \(device): \(String(cString: strerror(errno))) (is /dev/net/tun there?)")
                }
                descriptors.append(descriptor)
            }
            try await NetworkNamespace.run(["ip", "link", "set", devices.subject, "netns", namespace.name])
            try await NetworkNamespace.run(["ip", "addr", "add", gateway, "peer", host, "dev", devices.probe])
            try await NetworkNamespace.run(["ip", "link", "set", devices.probe, "up"])
            try await namespace.run(["link", "set", "lo", "up"])
            try await namespace.run(["addr", "add", host, "peer", gateway, "dev", devices.subject])
            try await namespace.run(["link", "set", devices.subject, "up"])
            // Where IPv6 is turned off these fail, and the link carries IPv4 alone.
            if (try? await NetworkNamespace.run(["ip", "-6", "addr", "add", ipv6Ends.gateway, "peer", ipv6Ends.host, "dev", devices.probe, "nodad"])) != nil,
               (try? await namespace.run(["-6", "addr", "add", ipv6Ends.host, "peer", ipv6Ends.gateway, "dev", devices.subject, "nodad"])) != nil {
                ipv6 = ipv6Ends
            }
        } catch {
            for descriptor in descriptors { close(descriptor) }
            namespace.remove()
            throw error
        }
        let link = PacketLink(probeSide: descriptors[0], subjectSide: descriptors[1], seed: seed)
        link.start()
        return EmulatedNetwork(namespace: namespace, host: host, gateway: gateway, ipv6: ipv6, probeDevice: devices.probe, link: link)
    }

    /// Stops the link (its devices go with it) and removes the namespace.
    package func remove() {
        link.stop()
        namespace.remove()
    }

    /// The /30s of 198.18.0.0/15.
    private static let subnets = 1 << 15

    private static func address(_ subnet: Int, _ last: Int) -> String {
        let value = 0xC612_0000 + subnet * 4 + last
        return "\(value >> 24 & 0xFF).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
    }

    /// The first /30 from `start` on that no interface of this host uses (another run's link).
    private static func freeSubnet(from start: Int) throws -> Int {
        var used = Set<Int>()
        var list: UnsafeMutablePointer<ifaddrs>?
        if getifaddrs(&list) == 0 {
            var entry = list
            while let current = entry {
                if let socketAddress = current.pointee.ifa_addr, socketAddress.pointee.sa_family == sa_family_t(AF_INET) {
                    let value = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt32(bigEndian: $0.pointee.sin_addr.s_addr)) }
                    if value >> 17 == 0xC612 >> 1 { used.insert((value - 0xC612_0000) / 4) }
                }
                entry = current.pointee.ifa_next
            }
            freeifaddrs(list)
        }
        for offset in 0..<subnets where !used.contains((start + offset) % subnets) { return (start + offset) % subnets }
        throw NetworkNamespace.Failure(description: "every /30 of 198.18.0.0/15 is in use")
    }
}
