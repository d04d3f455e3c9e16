import NIOCore
import NIOPosix
@testable import ProbeRunner
import ProbeScript
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A host name's addresses, and a connect that tries them in turn.
@Suite struct HostNamesTests {
    @Test func localhostResolvesFromTheHostsFileAndAnIPAddressIsKept() async throws {
        let names = HostNames()
        let localhost = try await names.addresses(of: "localhost", port: 7, on: MultiThreadedEventLoopGroup.singleton.next()).get()
        #expect(localhost.contains { $0.ipAddress == "127.0.0.1" || $0.ipAddress == "::1" }, "\(localhost)")
        #expect(localhost.allSatisfy { $0.port == 7 })
        let literal = try await names.addresses(of: "::1", port: 9, on: MultiThreadedEventLoopGroup.singleton.next()).get()
        #expect(literal.map(\.ipAddress) == ["::1"] && literal.first?.port == 9)
    }

    /// A connect to "twin", which stands for 127.0.0.2 (nothing listens there) and then
    /// 127.0.0.1, made on a loop as the runner makes it.
    private func connect(_ port: Int, timeout: Duration = .seconds(5)) async throws -> (channel: Channel, resetWith: [UInt8]?) {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        return try await loop.flatSubmit {
            do {
                let twin = try ["127.0.0.2", "127.0.0.1"].map { try SocketAddress(ipAddress: $0, port: 0) }
                let attempt = ConnectAttempt(address: Address(host: "twin", port: port), name: "c", handler: InboundHandler(),
                                             bootstrap: ClientBootstrap(group: loop), receiveBuffer: nil, sendBuffer: nil,
                                             timeout: timeout, hostNames: HostNames(known: ["twin": twin]))
                return attempt.connect(on: loop)
            } catch {
                return loop.makeFailedFuture(error)
            }
        }.get()
    }

    @Test func aHostNameTriesItsAddressesInTurn() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        let connected = try await connect(peer.port)
        #expect(connected.channel.remoteAddress?.ipAddress == "127.0.0.1")
        try await connected.channel.close()
    }

    /// An address that never answers takes only its share of the timeout.
    @Test func anAddressThatNeverAnswersLeavesTimeForTheNext() async throws {
        let peer = try await TestPeer.start(.echo)
        defer { Task { await peer.stop() } }
        // On 127.0.0.2, the same port: a listener that never accepts, its queue full, drops SYNs.
        let deaf = try LoopbackSocket.bound(port: peer.port, address: "127.0.0.2", listening: true)
        defer { close(deaf.fd) }
        let fillers = await LoopbackSocket.fillAcceptQueue(of: "127.0.0.2", port: peer.port, count: 4)
        defer { fillers.forEach { close($0) } }
        let connected = try await connect(peer.port, timeout: .seconds(2))
        #expect(connected.channel.remoteAddress?.ipAddress == "127.0.0.1")
        try await connected.channel.close()
    }

    @Test func whenNoAddressConnectsARefusalIsTheAnswer() async throws {
        let port = try LoopbackSocket.closedPort()
        await #expect { try await connect(port) } throws: { error in
            (error as? IOError)?.errnoCode == ECONNREFUSED
        }
    }
}
