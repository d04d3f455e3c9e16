import ArgumentParser
import Foundation
import Transports

/// `linechat echo-client URL`: a WebSocket client that echoes each message back until the
/// server closes, the WebSocket client suite's subject (Scenarios/websocket-client).
struct EchoClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "echo-client",
        abstract: "Connect to a WebSocket server and echo each message back, text or binary, until it closes.")

    @Argument(help: "The server's ws://HOST:PORT/PATH.")
    var url: String

    func run() async throws {
        do {
            try await WebSocketEchoClient.run(url: url, maxMessage: ServeCommand.largestEcho)
        } catch {
            FileHandle.standardError.write(Data("linechat echo-client: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
