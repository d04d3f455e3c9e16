import Foundation
import Transports

/// `my-chat serve HOST PORT [--heartbeat SECONDS]` and `my-chat connect HOST PORT NAME`: the
/// reference protocol over AsyncChannelTransport, for tcpprobe's line suites.
@main
enum MyChat {
    static func main() async throws {
        let arguments = CommandLine.arguments
        switch (arguments.count, arguments.dropFirst().first) {
        case (4, "serve"?), (6, "serve"?):
            guard let port = Int(arguments[3]) else { usage() }
            let heartbeat = arguments.count == 6 && arguments[4] == "--heartbeat" ? Double(arguments[5]).map { Duration.seconds($0) } : nil
            let listener = try await AsyncChannelListener(host: arguments[2], port: port)
            await ChatServer(listener: listener, heartbeat: heartbeat).run()
        case (5, "connect"?):
            guard let port = Int(arguments[3]) else { usage() }
            let ending = await ChatClient(transport: AsyncChannelTransport.connecting(to: arguments[2], port: port), name: arguments[4]).run()
            exit(ending.exitStatus)
        default:
            usage()
        }
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("usage: my-chat serve HOST PORT [--heartbeat SECONDS] | my-chat connect HOST PORT NAME\n".utf8))
        exit(2)
    }
}
