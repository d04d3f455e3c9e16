import NIOCore
import NIOPosix
import ProbeCapture
@testable import ProbeRunner
import Synchronization
import Testing
import TestSupport

/// The proxy as a library object, outside a scenario: what it hands its owner as a link closes.
@Suite struct ProbeProxyTests {
    @Test func aProxyThatRecordsWithoutReportingStillHandsOverEachConversation() async throws {
        let server = try await TestPeer.start(.echo)
        let conversations = Mutex<[(CapturedConversation, Int)]>([])
        let proxy = ProbeProxy(name: "p", back: ("127.0.0.1", server.port), seed: 1,
                               recorded: { conversation, number in conversations.withLock { $0.append((conversation, number)) } })
        try await proxy.bind(host: "127.0.0.1", port: 0, group: MultiThreadedEventLoopGroup.singleton)
        let client = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: try #require(proxy.port)).get()
        try await client.writeAndFlush(ByteBuffer(string: "ping\r\n")).get()
        try await client.close(mode: .output).get()
        // The echo closes on the half-close; the proxy passes its FIN back and the client closes.
        try await client.closeFuture.get()
        await Eventually.holds(within: .seconds(2)) { !conversations.withLock { $0.isEmpty } }
        await proxy.close()
        await server.stop()
        let recorded = conversations.withLock { $0 }
        #expect(recorded.map(\.1) == [1])
        let turns = recorded.first?.0.turns ?? []
        #expect(turns.map(\.fromClient) == [true, false])
        #expect(turns.map(\.bytes) == [Array("ping\r\n".utf8), Array("ping\r\n".utf8)])
    }
}
