import Foundation
import NIOConcurrencyHelpers
import Testing
import Transports
import TestSupport

/// The GCDAsyncSocket read model of the Dispatch transport: reads queue up and complete in order.
@Suite struct DispatchReadQueueTests {
    /// A server that writes `bytes` to whoever connects, then keeps the connection open.
    private func serving(_ bytes: [UInt8]) throws -> (any TransportListener, Task<Void, Never>) {
        let listener = try TransportKind.bsd.listen(host: "127.0.0.1", port: 0) { LineFraming() }
        let task = Task {
            for await connection in listener.connections {
                connection.start()
                connection.send(bytes: bytes)
            }
        }
        return (listener, task)
    }

    /// One queued read; every read has a timeout, so a transport that never delivers fails the test instead of hanging it.
    /// The default is long: the serving task waits its turn on swift-testing's threads, which
    /// CPU-bound tests can hold for seconds in a parallel run.
    private func read(_ transport: DispatchSocketTransport, _ request: ReadRequest, timeout: DispatchTimeInterval = .seconds(30)) async -> Result<[UInt8], ReadFailure> {
        await withCheckedContinuation { continuation in
            transport.read(request, timeout: timeout) { continuation.resume(returning: $0) }
        }
    }

    @Test func lengthDelimiterAndAvailableReadsInOrder() async throws {
        let (listener, task) = try serving(Array("HEAD12345line one\r\nnul\0cr\rrest".utf8))
        defer { listener.close(); task.cancel() }
        let client = DispatchSocketTransport(connectingTo: "127.0.0.1", port: listener.port, readsLines: false)
        client.start()
        #expect(await read(client, .toLength(4)) == .success(Array("HEAD".utf8)))
        #expect(await read(client, .toLength(5)) == .success(Array("12345".utf8)))
        #expect(await read(client, .toDelimiter(ReadRequest.crlf, maxLength: 64)) == .success(Array("line one\r\n".utf8)))
        #expect(await read(client, .toDelimiter(ReadRequest.nul, maxLength: 64)) == .success(Array("nul\0".utf8)))
        #expect(await read(client, .toDelimiter(ReadRequest.cr, maxLength: 64)) == .success(Array("cr\r".utf8)))
        #expect(await read(client, .available) == .success(Array("rest".utf8)))
        client.abort()
    }

    @Test func aReadTimesOutAndTheNextStillWorks() async throws {
        let (listener, task) = try serving(Array("abc".utf8))
        defer { listener.close(); task.cancel() }
        let client = DispatchSocketTransport(connectingTo: "127.0.0.1", port: listener.port, readsLines: false)
        client.start()
        #expect(await read(client, .toLength(10), timeout: .milliseconds(100)) == .failure(.timedOut))
        #expect(await read(client, .toLength(3), timeout: .seconds(2)) == .success(Array("abc".utf8)))
        client.abort()
    }

    @Test func aDelimiterPastTheMaximumFails() async throws {
        let (listener, task) = try serving([UInt8](repeating: 120, count: 100))
        defer { listener.close(); task.cancel() }
        let client = DispatchSocketTransport(connectingTo: "127.0.0.1", port: listener.port, readsLines: false)
        client.start()
        #expect(await read(client, .toDelimiter(ReadRequest.lf, maxLength: 32)) == .failure(.maxLengthExceeded(32)))
        client.abort()
    }

    @Test func partialWritesReportProgress() async throws {
        let listener = try TransportKind.bsd.listen(host: "127.0.0.1", port: 0) { LineFraming(maximumLength: .max) }
        defer { listener.close() }
        let client = DispatchSocketTransport(connectingTo: "127.0.0.1", port: listener.port, readsLines: false)
        let progress = NIOLockedValueBox<[Int]>([])
        client.onWriteProgress = { written, total in progress.withLockedValue { $0.append(written) } ; _ = total }
        client.start()
        let server = try #require(await firstConnection(of: listener), "no connection accepted within 5 s")
        let size = 8 * 1024 * 1024
        client.send(bytes: [UInt8](repeating: 65, count: size - 2) + [13, 10])
        // The server only reads after a while, so the write cannot complete in one go.
        try await Task.sleep(for: .milliseconds(200))
        server.start()
        _ = await bounded {
            for await event in server.events {
                if case .received = event { break }
            }
        }
        // The last progress report comes on the client's queue, maybe after the server has the line.
        await Eventually.holds(within: .seconds(5)) { progress.withLockedValue { $0.last } == size }
        let steps = progress.withLockedValue { $0 }
        #expect(steps.last == size)
        #expect(steps.count > 1, "an 8 MiB write to a peer not yet reading completes in several partial writes")
        #expect(steps == steps.sorted())
        client.abort()
        server.abort()
    }
}
