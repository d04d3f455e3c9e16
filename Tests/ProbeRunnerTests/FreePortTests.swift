import Foundation
import Testing
@testable import ProbeRunner

/// `free-port` gives a port nobody holds, outside the range the kernel hands to outgoing
/// connections, so a connection elsewhere cannot take it before the subject binds it.
@Suite struct FreePortTests {
    @Test func aPickIsFreeAndBelowTheKernelsOwnRange() throws {
        let range = FreePort.ephemeralRange()
        var picks = Set<Int>()
        for _ in 0..<20 {
            let port = try #require(FreePort.pick())
            picks.insert(port)
            if let range, range.lowerBound - FreePort.lowest >= 1_000 {
                #expect((FreePort.lowest..<range.lowerBound).contains(port), "\(port) is in the kernel's range \(range)")
            }
            // Free: a listener can take it.
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            #expect(bound == 0 && listen(fd, 1) == 0, "port \(port)")
        }
        #expect(picks.count > 10, "picks are spread: \(picks.sorted())")
    }

    @Test func scenariosSideBySideNeverGetTheSamePort() async throws {
        // 2,000 random picks from some 22,000 ports would share about 88 ports between them;
        // a port two scenarios both got would start only one of their servers.
        let picks = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 { group.addTask { (0..<250).compactMap { _ in FreePort.pick() } } }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(picks.count == 2_000)
        #expect(Set(picks).count == picks.count, "\(picks.count - Set(picks).count) ports were handed out twice")
    }
}
