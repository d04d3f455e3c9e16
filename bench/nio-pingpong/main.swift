// The floor for round trips over SwiftNIO on this machine: the least a NIO client does to send
// "ping N\r\n" and read the echoed line back, COUNT times, with no scenario around it. bench/run
// sets tcpprobe's CPU a round trip beside this one's and the blocking C client's. With --judged
// it also judges each round trip as a scenario's two steps must (JudgedPingPong).
// Usage: nio-pingpong PORT COUNT [--judged]
import Glibc
import NIOCore
import NIOPosix

let arguments = CommandLine.arguments
let judged = arguments.count == 4 && arguments[3] == "--judged"
guard arguments.count == 3 || judged, let port = Int(arguments[1]), let count = Int(arguments[2]), count > 0 else {
    print("usage: nio-pingpong PORT COUNT [--judged]")
    exit(2)
}
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let done = group.next().makePromise(of: Void.self)
let channel = try ClientBootstrap(group: group)
    .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
    .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            let handler: any ChannelInboundHandler & Sendable = judged ? JudgedPingPong(count: count, done: done) : PingPong(count: count, done: done)
            try channel.pipeline.syncOperations.addHandler(handler)
        }
    }
    .connect(host: "127.0.0.1", port: port).wait()
try done.futureResult.wait()
try channel.close().wait()
