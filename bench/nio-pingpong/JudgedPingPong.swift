import Glibc
import NIOCore

/// The least a client does that judges each round trip as a scenario's `send line "ping {i}"`
/// and `expect line "ping {i}"` must, and no more: it renders the line, writes it with a
/// promise (a write's error reaches only its promise, and a send must report a reset), cuts
/// the reply at its LF with a 1024-byte bound, compares it with the rendered expectation,
/// logs each step with the time it ended and its bytes (kept as a slice, the latest 1,000),
/// and starts the next step in a turn of the loop of its own, as tcpprobe does so that many
/// copies take turns. bench/round-trip-costs measures tcpprobe against it.
final class JudgedPingPong: ChannelInboundHandler, @unchecked Sendable { // the channel's loop alone touches it
    typealias InboundIn = ByteBuffer

    /// A step's log entry: when it ended, in nanoseconds of the monotonic clock, and its bytes.
    private struct Entry {
        let at: UInt64
        let bytes: ByteBuffer
    }

    static let logLimit = 1000
    static let maxLine = 1024

    private let count: Int
    private let done: EventLoopPromise<Void>
    private var sent = 0
    private var expected = ByteBuffer()
    private var received = ByteBuffer()
    private var log: [Entry] = []
    private var oldest = 0

    init(count: Int, done: EventLoopPromise<Void>) {
        self.count = count
        self.done = done
        log.reserveCapacity(Self.logLimit)
    }

    func channelActive(context: ChannelHandlerContext) {
        sendNext(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        guard let newline = received.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if received.readableBytes > Self.maxLine { done.fail(ChannelError.inappropriateOperationForState) }
            return
        }
        let line = received.readSlice(length: newline + 1 - received.readerIndex)!
        guard line.readableBytesView.elementsEqual(expected.readableBytesView) else {
            return done.fail(ChannelError.inappropriateOperationForState)
        }
        record(line)
        received.discardReadBytes()
        if sent == count { return done.succeed() }
        context.eventLoop.assumeIsolated().execute { self.sendNext(context) }
    }

    private func sendNext(_ context: ChannelHandlerContext) {
        var line = context.channel.allocator.buffer(capacity: 16)
        line.writeString("ping \(sent)\r\n")
        expected.clear()
        expected.writeString("ping \(sent)\r\n")
        sent += 1
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { result in
            switch result {
            case .success: self.record(line)
            case .failure(let error): self.done.fail(error)
            }
        }
        context.writeAndFlush(NIOAny(line), promise: written)
    }

    private func record(_ bytes: ByteBuffer) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let entry = Entry(at: UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec), bytes: bytes)
        if log.count < Self.logLimit { return log.append(entry) }
        log[oldest] = entry
        oldest = (oldest + 1) % Self.logLimit
    }
}
