import ArgumentParser
import Foundation
import Transports

/// `linechat serve`: the chat server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the chat server.")

    @Option(help: "bsd, dispatch or nio.")
    var transport: TransportKind = .nio

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port (0 picks a free one).")
    var port = 0

    @Option(help: "The maximum line length.")
    var maxLine = LineFraming.defaultMaximumLength

    @Option(help: "Plant a bug (see `linechat faults`).")
    var fault: Fault?

    @Flag(help: "Write the size of each read to stderr (\"read N\"), for benchmarks.")
    var traceReads = false

    func run() async throws {
        let maximum = maxLine
        let (fault, traceReads) = (self.fault, self.traceReads)
        let listener = try transport.listen(host: host, port: port) { () -> any LineUnframer in
            let unframer: any LineUnframer = fault.map { FaultyUnframer(fault: $0, maximumLength: maximum) } ?? LineFraming(maximumLength: maximum)
            return traceReads ? ReadTracingUnframer(inner: unframer) : unframer
        }
        print("linechat listening on \(host.contains(":") ? "[\(host)]" : host):\(listener.port) (transport \(transport.rawValue)\(fault.map { ", fault \($0.rawValue)" } ?? ""))")
        fflush(stdout)
        let room = ChatRoom()
        await withDiscardingTaskGroup { group in
            for await connection in listener.connections {
                // Joined in accept order, before its first line is read.
                let session = ChatSession(transport: connection, room: room, fault: fault)
                await room.join(session)
                group.addTask { await session.run() }
            }
        }
    }
}

/// `linechat faults`: the bugs `--fault` can plant.
struct FaultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "faults", abstract: "List the bugs --fault can plant.")

    func run() {
        for fault in Fault.allCases { print("\(fault.rawValue)\t\(fault.commands)\t\(fault.summary)") }
    }
}
