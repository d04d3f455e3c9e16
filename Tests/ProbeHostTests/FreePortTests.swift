import Foundation
import Testing
@testable import ProbeHost

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

    /// A python3 child that runs `code` with the claims file open as `f`, and the first line it prints.
    private func claimant(_ file: String, _ code: String, _ arguments: [String] = []) throws -> (process: Process, line: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import fcntl, sys, time\nf = open(sys.argv[1], 'r+')\n" + code, file] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        return (process, line.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether a python3 child can lock byte `port` of `file` now.
    private func anotherProcessCanClaim(_ port: Int, in file: String) throws -> Bool {
        let attempt = "try:\n fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, int(sys.argv[2]))\n print('granted')\nexcept OSError:\n print('refused')"
        let (other, answer) = try claimant(file, attempt, ["\(port)"])
        other.waitUntilExit()
        try #require(answer == "granted" || answer == "refused", "python3 said: \(answer)")
        return answer == "granted"
    }

    private func claimsFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("claims-\(UUID().uuidString)").path
    }

    @Test(.enabled(if: FreePort.ephemeralRange().map { $0.lowerBound - FreePort.lowest >= 1_000 } ?? false,
                   "needs room below the kernel's ephemeral range"))
    func portsAnotherProcessClaimedAreLeftAlone() throws {
        let file = claimsFile()
        let claims = PortClaims(path: file)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let below = try #require(FreePort.ephemeralRange()).lowerBound
        // Another process claims every port free-port picks from.
        let (other, line) = try claimant(file, "fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB, \(below - FreePort.lowest), \(FreePort.lowest))\nprint('held', flush=True)\ntime.sleep(30)")
        defer { other.terminate() }
        try #require(line == "held", "the other process could not claim the ports: \(line)")
        for _ in 0..<5 {
            let port = try #require(FreePort.pick(claims: claims))
            #expect(!(FreePort.lowest..<below).contains(port), "\(port) was claimed by another process")
        }
    }

    @Test func aPickIsClaimedAgainstOtherProcesses() throws {
        let file = claimsFile()
        let claims = PortClaims(path: file)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let port = try #require(FreePort.pick(claims: claims))
        #expect(try !anotherProcessCanClaim(port, in: file), "another process could claim port \(port) too")
        claims.releaseAll()
    }

    @Test func aLinkInPlaceOfTheFileIsNotFollowed() throws {
        let target = claimsFile(), link = claimsFile()
        #expect(FileManager.default.createFile(atPath: target, contents: nil))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        defer { for path in [target, link] { try? FileManager.default.removeItem(atPath: path) } }
        let claims = PortClaims(path: link)
        #expect(claims.claim(12_345), "without its own file, claims are this process's only")
        #expect(try anotherProcessCanClaim(12_345, in: target), "the link's target was locked")
    }
}
