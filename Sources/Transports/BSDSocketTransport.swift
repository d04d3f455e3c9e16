import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A transport on plain BSD sockets: a reader thread that polls, and a serial queue of
/// blocking writes that loop over partial writes.
public final class BSDSocketTransport: TCPTransport, Sendable {
    private let core: TransportCore
    private let target: (host: String, port: Int)?
    /// Its socket (-1 until connected and once closed) and whether a stop or an abort began.
    private struct Socket {
        var fd: Int32
        var stopping = false
        var aborting = false
    }
    private let socket: Mutex<Socket>
    private let writes = DispatchQueue(label: "tcpprobe.bsd.writes")
    /// How long a graceful stop waits for the peer's FIN before closing anyway.
    static let closeTimeout: Int32 = 5_000

    public var state: TransportState { core.state }
    public var events: AsyncStream<TransportEvent> { core.events }

    /// A client that connects to `host:port` when started.
    public init(connectingTo host: String, port: Int, unframer: any LineUnframer = LineFraming()) {
        core = TransportCore(unframer: unframer)
        target = (host, port)
        socket = Mutex(Socket(fd: -1))
    }

    /// An accepted connection.
    init(accepted fd: Int32, unframer: any LineUnframer) {
        core = TransportCore(unframer: unframer)
        target = nil
        socket = Mutex(Socket(fd: fd))
        PosixSocket.setNoDelay(fd)
    }

    public func start() {
        guard core.beginStarting() else { return }
        // The connect runs on the write queue, so sends and a stop issued meanwhile follow it in order.
        writes.async { [self] in
            if let target {
                do {
                    let connected = try PosixSocket.connect(host: target.host, port: target.port)
                    socket.withLock { $0.fd = connected }
                } catch {
                    core.stopped(error)
                    return
                }
            }
            core.started()
            Thread { [self] in readLoop() }.start()
        }
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var peerClosed = false
        var stopError: (any Error)?
        var waitedForClose: Int32 = 0
        while true {
            let (socket, isStopping, isAborting) = self.socket.withLock { ($0.fd, $0.stopping, $0.aborting) }
            if isAborting { break }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            if ready == 0 {
                if isStopping {
                    waitedForClose += 100
                    if waitedForClose >= Self.closeTimeout { break }
                }
                continue
            }
            if ready < 0 {
                if errno == EINTR { continue }
                stopError = PosixSocket.Failure(operation: "poll", code: errno)
                break
            }
            if peerClosed {
                // Only the probe's own stop is awaited now; drain and ignore.
                if read(socket, &buffer, buffer.count) <= 0, isStopping { break }
                continue
            }
            let count = read(socket, &buffer, buffer.count)
            if count > 0 {
                core.received(buffer[0..<count])
            } else if count == 0 {
                // After our own abort, the read ends because of its SHUT_RD, not the peer's FIN.
                if self.socket.withLock({ $0.aborting }) { break }
                peerClosed = true
                core.peerClosed()
                if isStopping { break }
            } else if errno != EINTR && errno != EAGAIN {
                if self.socket.withLock({ $0.aborting }) { break }
                stopError = PosixSocket.Failure(operation: "read", code: errno)
                break
            }
        }
        writes.sync {}
        socket.withLock { socket in
            if socket.fd >= 0 { close(socket.fd) }
            socket.fd = -1
        }
        core.stopped(stopError)
    }

    public func send(bytes: [UInt8]) {
        writes.async { [self] in
            let socket = self.socket.withLock { $0.stopping || $0.aborting ? -1 : $0.fd }
            guard socket >= 0 else { return }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    public func stop() {
        writes.async { [self] in
            let socket = self.socket.withLock { socket -> Int32 in
                socket.stopping = true
                return socket.fd
            }
            if socket >= 0 { shutdown(socket, Int32(SHUT_WR)) }
        }
    }

    public func abort() {
        let socket = self.socket.withLock { socket -> Int32 in
            socket.aborting = true
            return socket.fd
        }
        guard socket >= 0 else { return }
        PosixSocket.setResetOnClose(socket)
        shutdown(socket, Int32(SHUT_RD)) // wakes the reader, which closes: RST
    }
}

/// Accepts connections on a BSD socket in a thread of its own.
public final class BSDSocketListener: TransportListener, Sendable {
    public let port: Int
    public let connections: AsyncStream<any TCPTransport>
    private let continuation: AsyncStream<any TCPTransport>.Continuation
    private let fd: Int32
    private let closed = Mutex(false)

    public init(host: String, port: Int, makeUnframer: @escaping @Sendable () -> any LineUnframer) throws {
        (fd, self.port) = try PosixSocket.listen(host: host, port: port)
        (connections, continuation) = AsyncStream.makeStream(of: (any TCPTransport).self)
        Thread { [self] in
            while true {
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, 100)
                if closed.withLock({ $0 }) { break }
                guard ready > 0 else { continue }
                let client = accept(fd, nil, nil)
                if client >= 0 { continuation.yield(BSDSocketTransport(accepted: client, unframer: makeUnframer())) }
            }
            Glibc.close(fd)
            continuation.finish()
        }.start()
    }

    public func close() {
        closed.withLock { $0 = true }
    }
}
