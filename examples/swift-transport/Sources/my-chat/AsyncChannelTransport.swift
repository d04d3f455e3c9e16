import NIOCore
import NIOPosix
import Synchronization
import Transports

/// One TCP connection over SwiftNIO's async channels, written the way an application writes
/// its own transport and adopting the Transports product's `TCPTransport`: lines framed with
/// CR LF, at most 1024 bytes (the library's `LineFraming`), writes queued in order, `stop` a
/// FIN after what is queued, `abort` an RST.
final class AsyncChannelTransport: TCPTransport {
    typealias Channel = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    private enum Outgoing {
        case bytes([UInt8])
        case stop
        case abort
    }

    /// What `abort` throws to end the connection at once.
    private struct Aborted: Error {}

    let events: AsyncStream<TransportEvent>
    private let report: AsyncStream<TransportEvent>.Continuation
    private let outgoing: AsyncStream<Outgoing>
    private let queue: AsyncStream<Outgoing>.Continuation
    private let open: @Sendable () async throws -> Channel
    private let current = Mutex(TransportState.initialised)

    var state: TransportState { current.withLock { $0 } }

    /// A transport that `open` gives its channel when it starts.
    private init(open: @escaping @Sendable () async throws -> Channel) {
        self.open = open
        (events, report) = AsyncStream.makeStream()
        (outgoing, queue) = AsyncStream.makeStream()
    }

    /// A client's connection to `host`:`port`, made when it starts.
    static func connecting(to host: String, port: Int) -> AsyncChannelTransport {
        AsyncChannelTransport {
            try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelOption(.allowRemoteHalfClosure, value: true)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture { try wrap(channel) }
                }
        }
    }

    /// A connection a listener accepted.
    static func accepted(_ channel: Channel) -> AsyncChannelTransport {
        AsyncChannelTransport { channel }
    }

    /// The async channel over an open NIO channel, able to send FIN while it still reads.
    static func wrap(_ channel: any NIOCore.Channel) throws -> Channel {
        try Channel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
    }

    func start() {
        let first = current.withLock { state in
            guard case .initialised = state else { return false }
            state = .starting
            return true
        }
        if first { Task { await run() } }
    }

    func send(bytes: [UInt8]) { queue.yield(.bytes(bytes)) }

    func stop() { queue.yield(.stop) }

    func abort() { queue.yield(.abort) }

    private func run() async {
        do {
            let channel = try await open()
            current.withLock { $0 = .started }
            report.yield(.started)
            try await channel.executeThenClose { inbound, outbound in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await self.read(inbound) }
                    group.addTask { try await self.write(outbound, on: channel.channel) }
                    try await group.waitForAll()
                }
            }
            finish(nil)
        } catch is Aborted {
            finish(nil)
        } catch {
            finish(error)
        }
    }

    /// Reports each line until the peer's FIN; after a line too long, reports that and reads no more.
    private func read(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>) async throws {
        var lines = LineFraming()
        for try await buffer in inbound {
            do {
                for line in try lines.append(buffer.readableBytesView) { report.yield(.received(line)) }
            } catch {
                report.yield(.framingError(error))
                return
            }
        }
        for line in lines.finish() { report.yield(.received(line)) }
        report.yield(.peerClosed)
    }

    /// Writes what is queued, in order, until a stop (FIN) or an abort (RST).
    private func write(_ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, on channel: any NIOCore.Channel) async throws {
        for await item in outgoing {
            switch item {
            case .bytes(let bytes):
                try await outbound.write(ByteBuffer(bytes: bytes))
            case .stop:
                outbound.finish()
                return
            case .abort:
                // A close with SO_LINGER at zero sends RST instead of FIN.
                try await (channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
                throw Aborted()
            }
        }
    }

    private func finish(_ error: (any Error)?) {
        current.withLock { $0 = .stopped(error) }
        report.yield(.stopped(error))
        report.finish()
        queue.finish()
    }
}
