// The floor for round trips over SwiftNIO on this machine: the least a NIO client does to send
// "ping N\r\n" and read the echoed line back, COUNT times, with no scenario around it. bench/run
// sets tcpprobe's CPU a round trip beside this one's and the blocking C client's.
// Usage: nio-pingpong PORT COUNT
import Glibc
import NIOCore
import NIOPosix

/// Sends a line, waits for all of its echo, and sends the next.
final class PingPong: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private let count: Int
    private let done: EventLoopPromise<Void>
    private var sent = 0
    private var line = ByteBuffer()
    private var received = ByteBuffer()

    init(count: Int, done: EventLoopPromise<Void>) {
        self.count = count
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) {
        sendNext(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        received.writeBuffer(&bytes)
        guard received.readableBytes >= line.readableBytes else { return }
        guard received.readableBytesView.elementsEqual(line.readableBytesView) else {
            return done.fail(ChannelError.inappropriateOperationForState)
        }
        received.clear()
        if sent == count { done.succeed() } else { sendNext(context) }
    }

    private func sendNext(_ context: ChannelHandlerContext) {
        line.clear()
        line.writeString("ping \(sent)\r\n")
        sent += 1
        context.writeAndFlush(NIOAny(line), promise: nil)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]), let count = Int(arguments[2]), count > 0 else {
    print("usage: nio-pingpong PORT COUNT")
    exit(2)
}
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let done = group.next().makePromise(of: Void.self)
let channel = try ClientBootstrap(group: group)
    .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
    .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(PingPong(count: count, done: done)) }
    }
    .connect(host: "127.0.0.1", port: port).wait()
try done.futureResult.wait()
try channel.close().wait()
