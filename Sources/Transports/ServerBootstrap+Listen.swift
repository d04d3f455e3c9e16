import NIOCore
import NIOPosix

extension ServerBootstrap {
    /// Binds and listens, failing in the same words as the other transports (not NIO's
    /// rendering of the call that failed).
    func listen(host: String, port: Int) throws -> Channel {
        do {
            return try bind(host: host, port: port).wait()
        } catch let error as IOError {
            throw PosixSocket.Failure(operation: "listen on \(host):\(port)", code: error.errnoCode)
        }
    }
}
