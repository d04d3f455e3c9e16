import ArgumentParser
import Transports

@main
struct LineChat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "linechat",
        abstract: "The reference subject of tcpprobe: a line chat server and client over each transport.",
        subcommands: [ServeCommand.self, ConnectCommand.self, EchoClientCommand.self, FaultsCommand.self]
    )
}

extension TransportKind: ExpressibleByArgument {}
extension Fault: ExpressibleByArgument {}
