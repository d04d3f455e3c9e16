import NIOCore
import NIOPosix
import ProbeCapture
import ProbeScript

/// A proxy outside any scenario, for interactive debugging (`tcpprobe proxy FRONT to BACK
/// --fault …`) and for recording (`tcpprobe record`): the faults hold from the start, `report`
/// hears a line per connection as it closes, and `recorded`, when given, its conversation.
package final class StandaloneProxy: Sendable {
    private let proxy: ProbeProxy

    /// The port it listens on.
    package var port: Int { proxy.port ?? 0 }

    /// Listens on `front`; each fault a step of a scenario's proxy without its `NAME:`
    /// (`delay 50ms downstream`), with literal arguments. A front it cannot listen on throws
    /// "cannot listen on ADDRESS: REASON", with what holds the port.
    package init(front: Address, back: Address, faults: [ProxyFault], report: @escaping @Sendable (String) -> Void,
                recorded: (@Sendable (CapturedConversation, Int) -> Void)? = nil) async throws {
        proxy = ProbeProxy(name: "proxy", back: (back.host, back.port), seed: UInt64.random(in: 1...UInt64.max),
                           report: report, recorded: recorded)
        for fault in faults { await proxy.perform(try ProxyAction(fault, LiteralArguments()), fault.direction) }
        do {
            try await proxy.bind(host: front.host, port: front.port, group: MultiThreadedEventLoopGroup.singleton)
        } catch {
            throw CommonFailure.cannotListen(on: front, error)
        }
    }

    /// Stops listening and closes every connection.
    package func close() async {
        await proxy.close()
    }
}
