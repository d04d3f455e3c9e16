import NIOCore
import NIOPosix

/// Whether a TCP connection to an address can be made now: how `spawn … ready on` learns that
/// a subject listens where the kernel's tables cannot say.
package enum TCPReachability {
    /// Why no TCP connection to `host:port` was made within `timeout` ("refused (nothing
    /// listens there)"), or nil when one was (it is closed at once).
    package static func problem(host: String, port: Int, within timeout: Duration,
                                on group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async -> String? {
        do {
            let channel = try await ClientBootstrap(group: group)
                .connectTimeout(timeout.timeAmount)
                .connect(host: host, port: port).get()
            try? await channel.close().get()
            return nil
        } catch let error as NIOConnectionError {
            // A name's addresses are each tried; the first one's failure says why.
            return (error.connectionErrors.first.map { ConnectFailure($0.error) } ?? ConnectFailure(error)).description
        } catch {
            return ConnectFailure(error).description
        }
    }
}
