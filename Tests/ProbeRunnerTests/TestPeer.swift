import NIOCore
import NIOPosix
import ProbeHost
import Synchronization
import TestSupport

/// What an in-process peer does with each connection it accepts.
enum PeerBehaviour: Sendable {
    /// Echoes what it reads; closes when the probe half-closes.
    case echo
    /// Reads and discards, never writes; closes when the probe half-closes.
    case silent
    /// Writes `bytes`, then closes with FIN.
    case finAfter([UInt8])
    /// Writes `bytes`, then resets with RST 50 ms later (a RST before the probe sees its
    /// connect complete would lose the bytes with the connection).
    case resetAfter([UInt8])
    /// Resets with RST as soon as it accepts, racing the probe's view of its connect.
    case resetAtOnce
    /// Sends the bytes and resets at once, as a server that answers "busy" and hangs up.
    case answerThenReset([UInt8])
    /// Writes `bytes` one at a time, `interval` apart.
    case dribble([UInt8], interval: TimeAmount)
    /// Writes `byte` without end (bounded by `limit` bytes), never a line terminator.
    case flood(limit: Int)
    /// Never reads: the probe's sends fill the socket buffers and block.
    case neverRead
    /// Answers each CRLF line with "got:LINE", however the line was split (correct framing).
    case lineReply
    /// Treats each read as a whole line (the classic framing bug), answering "got:READ".
    case readAsLine
    /// Answers like `lineReply`, but trims a CR left at the end of a read, so a line split
    /// between its CR and LF never completes (the newcomer's server).
    case trimsCRAtReadEnd
    /// Writes `lines` lines of about 1 KiB ("INDEX:xxx…") as fast as the probe takes them.
    case bulkLines(Int)
}

/// What a peer saw, for assertions: bytes, how each connection ended, read sizes and times.
final class PeerLog: Sendable {
    private struct Seen {
        var received: [UInt8] = []
        var ends: [String] = []
        var reads: [(at: NIODeadline, count: Int, port: Int)] = []
        var stalled = false
        var clientPorts: [Int] = []
    }
    private let seen = Mutex(Seen())

    /// Bytes read from the connection whose probe end is `port`.
    func append(_ bytes: [UInt8], from port: Int) {
        seen.withLock { seen in
            seen.received += bytes
            seen.reads.append((.now(), bytes.count, port))
        }
    }

    func ended(_ how: String) { seen.withLock { $0.ends.append(how) } }

    func accepted(from port: Int) { seen.withLock { $0.clientPorts.append(port) } }

    /// The probe's port of each connection the peer accepted, in order.
    var clientPorts: [Int] { seen.withLock { $0.clientPorts } }

    func stalled() { seen.withLock { $0.stalled = true } }

    /// True once a write of the peer had to wait: its channel became unwritable.
    var didStall: Bool { seen.withLock { $0.stalled } }

    var received: [UInt8] { seen.withLock { $0.received } }
    var ends: [String] { seen.withLock { $0.ends } }
    var reads: [(at: NIODeadline, count: Int, port: Int)] { seen.withLock { $0.reads } }

    /// Waits (at most `limit`, in 10 ms steps) until `count` connections have ended, so every
    /// byte sent before their FIN has been read and logged.
    func waitForEnd(count: Int = 1, limit: Duration = .seconds(2)) async throws {
        await Eventually.holds(within: limit) { ends.count >= count }
    }
}

/// A TCP server on 127.0.0.1 (or ::1), port 0, acting as `behaviour` towards the probe.
final class TestPeer: @unchecked Sendable {
    let channel: Channel
    let log: PeerLog

    var port: Int { channel.localAddress!.port! }

    /// Starts a peer on `host`, at `port` (0: one the kernel picks, from its ephemeral range).
    static func start(_ behaviour: PeerBehaviour, host: String = "127.0.0.1", port: Int = 0) async throws -> TestPeer {
        // A peer reads within a split's gap only if opening a descriptor does not stall its loop.
        DescriptorTable.grow(toHold: DescriptorTable.startingSize)
        let log = PeerLog()
        let autoRead: Bool
        if case .neverRead = behaviour { autoRead = false } else { autoRead = true }
        // A loop of its own: a flooding peer of another test cannot delay this one's replies.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelOption(ChannelOptions.autoRead, value: autoRead)
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(PeerHandler(behaviour: behaviour, log: log))
                }
            }
        let channel: Channel
        do {
            channel = try await bootstrap.bind(host: host, port: port).get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        return TestPeer(channel: channel, log: log, group: group)
    }

    private let group: MultiThreadedEventLoopGroup

    private init(channel: Channel, log: PeerLog, group: MultiThreadedEventLoopGroup) {
        self.channel = channel
        self.log = log
        self.group = group
    }

    func stop() async {
        try? await channel.close().get()
        try? await group.shutdownGracefully()
    }
}

private final class PeerHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let behaviour: PeerBehaviour
    let log: PeerLog
    private var flooded = 0

    init(behaviour: PeerBehaviour, log: PeerLog) {
        self.behaviour = behaviour
        self.log = log
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        if let port = channel.remoteAddress?.port { log.accepted(from: port) }
        switch behaviour {
        case .finAfter(let bytes):
            channel.writeAndFlush(channel.allocator.buffer(bytes: bytes)).whenComplete { _ in channel.close(promise: nil) }
        case .resetAfter(let bytes):
            channel.writeAndFlush(channel.allocator.buffer(bytes: bytes)).flatMap { _ in
                channel.eventLoop.scheduleTask(in: .milliseconds(50)) {}.futureResult
            }.whenComplete { _ in
                (channel as! SocketOptionProvider).setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
                    channel.close(promise: nil)
                }
            }
        case .resetAtOnce:
            (channel as! SocketOptionProvider).setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
                channel.close(promise: nil)
            }
        case .answerThenReset(let bytes):
            (channel as! SocketOptionProvider).setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
                channel.writeAndFlush(channel.allocator.buffer(bytes: bytes)).whenComplete { _ in channel.close(promise: nil) }
            }
        case .dribble(let bytes, let interval):
            for (index, byte) in bytes.enumerated() {
                context.eventLoop.scheduleTask(in: interval * Int64(index + 1)) {
                    channel.writeAndFlush(channel.allocator.buffer(bytes: [byte]), promise: nil)
                }
            }
        case .flood:
            flood(channel)
        case .bulkLines:
            bulk(channel)
        case .echo, .silent, .neverRead, .lineReply, .readAsLine, .trimsCRAtReadEnd:
            break
        }
    }

    private var nextLine = 0
    private var pendingLine: [UInt8] = []

    /// The filler of a bulk line, after "INDEX:".
    static let bulkFiller = String(repeating: "x", count: 1000)

    private func bulk(_ channel: Channel) {
        guard case .bulkLines(let count) = behaviour else { return }
        while channel.isActive, nextLine < count {
            guard channel.isWritable else { log.stalled(); break }
            channel.write(channel.allocator.buffer(string: "\(nextLine):\(Self.bulkFiller)\r\n"), promise: nil)
            nextLine += 1
        }
        channel.flush()
    }

    private func flood(_ channel: Channel) {
        guard case .flood(let limit) = behaviour else { return }
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 16 * 1024)
        while channel.isActive, channel.isWritable, flooded < limit {
            flooded += chunk.count
            channel.write(channel.allocator.buffer(bytes: chunk), promise: nil)
        }
        channel.flush()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        guard context.channel.isWritable else { return }
        flood(context.channel)
        bulk(context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        log.append(Array(buffer.readableBytesView), from: context.channel.remoteAddress?.port ?? 0)
        switch behaviour {
        case .echo:
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        case .readAsLine:
            var text = Array(buffer.readableBytesView)
            while text.last == 10 || text.last == 13 { text.removeLast() }
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: Array("got:".utf8) + text + [13, 10])), promise: nil)
        case .lineReply, .trimsCRAtReadEnd:
            pendingLine += buffer.readableBytesView
            while let end = pendingLine.firstIndex(of: 10), end > 0, pendingLine[end - 1] == 13 {
                let line = pendingLine[..<(end - 1)]
                context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: Array("got:".utf8) + line + [13, 10])), promise: nil)
                pendingLine.removeFirst(end + 1)
            }
            if case .trimsCRAtReadEnd = behaviour, pendingLine.last == 13 { pendingLine.removeLast() }
        default:
            break
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            log.ended("eof")
            switch behaviour {
            case .echo, .silent: context.close(promise: nil)
            default: break
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let error = error as? IOError, error.errnoCode == ECONNRESET { log.ended("reset") } else { log.ended("error: \(error)") }
        context.close(promise: nil)
    }
}
