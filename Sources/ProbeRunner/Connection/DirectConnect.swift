import NIOCore
import ProbeHost
#if canImport(Glibc)
import Glibc
#endif

/// A connect to an IP address made on a socket of tcpprobe's own, then handed to NIO.
///
/// NIO's own connect asks the socket for its error once the loop sees it writable; a peer that
/// resets right after the handshake is then a failed connect, and NIO closes the socket with
/// whatever the peer sent before its RST (a server that answers "busy" and resets lost its
/// answer in 3 of 40 runs). Here a reset after the handshake keeps those bytes.
enum DirectConnect {
    enum Outcome {
        /// Established: the socket, non-blocking, for `withConnectedSocket`.
        case connected(Int32)
        /// Established, then reset by the peer before it was handed over: the socket, and the
        /// bytes the peer sent before its RST.
        case reset(Int32, early: [UInt8])
        /// Refused, unreachable or other: the system's error.
        case failed(IOError)
        /// The source address could not be bound (not an address of this machine, or its port taken).
        case sourceUnavailable(IOError)
        case timedOut
    }

    /// Connects to `address` within `timeout`, with the buffer sizes set before the handshake
    /// (so the window scale it announces fits them), from `source` when given. A source without
    /// a port leaves the port to the connect (`IP_BIND_ADDRESS_NO_PORT`), so the same port can
    /// serve connections to different servers: a range of source addresses then multiplies the
    /// ephemeral ports rather than dividing them. The outcome completes on `loop`, which polls
    /// for it.
    static func connect(to address: SocketAddress, from source: SocketAddress?, receiveBuffer: Int?, sendBuffer: Int?,
                        timeout: Duration, on loop: EventLoop) -> EventLoopFuture<Outcome> {
        switch start(to: address, from: source, receiveBuffer: receiveBuffer, sendBuffer: sendBuffer) {
        case .over(let outcome):
            return loop.makeSucceededFuture(outcome)
        case .inProgress(let fd):
            let promise = loop.makePromise(of: Outcome.self)
            poll(fd, until: .now + timeout, pause: .microseconds(100), on: loop, promise)
            return promise.futureResult
        }
    }

    /// A connect begun, or over already.
    private enum Start {
        case inProgress(Int32)
        case over(Outcome)
    }

    private static func start(to address: SocketAddress, from source: SocketAddress?, receiveBuffer: Int?, sendBuffer: Int?) -> Start {
        let family = address.protocol.rawValue
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .over(.failed(IOError(errnoCode: errno, reason: "socket"))) }
        for (option, size) in [(SO_RCVBUF, receiveBuffer), (SO_SNDBUF, sendBuffer)] {
            guard var value = size.map(Int32.init(clamping:)) else { continue }
            setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            if source.port == 0 {
                var on: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_IP), Self.bindAddressNoPort, &on, socklen_t(MemoryLayout<Int32>.size))
            }
            let bound = source.withSockAddr { Glibc.bind(fd, $0, socklen_t($1)) == 0 ? 0 : errno }
            guard bound == 0 else {
                close(fd)
                return .over(.sourceUnavailable(IOError(errnoCode: bound, reason: "bind")))
            }
        }
        let started = address.withSockAddr { Glibc.connect(fd, $0, socklen_t($1)) == 0 ? 0 : errno }
        switch started {
        case 0: return .over(.connected(fd))
        case EINPROGRESS: return .inProgress(fd)
        default:
            close(fd)
            return .over(.failed(IOError(errnoCode: started, reason: "connect")))
        }
    }

    /// `IP_BIND_ADDRESS_NO_PORT` (Linux 4.2), which Glibc's headers do not name.
    static let bindAddressNoPort: Int32 = 24

    /// Waits for the handshake by asking the socket, at once and then at growing intervals
    /// (0.1 ms doubling to 10 ms) on the event loop's timer: on loopback it has mostly completed
    /// by the first question. No task waits meanwhile, so ten thousand connects in a `parallel`
    /// block hold a timer each, not a task's frames. (With a Dispatch write source here instead,
    /// a test run crashed in libdispatch's manager thread during the Dispatch transport's
    /// socket-reuse test; polling keeps libdispatch out.)
    private static func poll(_ fd: Int32, until deadline: ContinuousClock.Instant, pause: Duration, on loop: EventLoop,
                             _ promise: EventLoopPromise<Outcome>) {
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let ready = Glibc.poll(&descriptor, 1, 0)
        if ready > 0 { return promise.succeed(judge(fd)) }
        if ready < 0, errno != EINTR {
            let code = errno
            close(fd)
            return promise.succeed(.failed(IOError(errnoCode: code, reason: "poll")))
        }
        let left = deadline - .now
        if left <= .zero { return promise.succeed(abandon(fd)) }
        loop.scheduleTask(in: min(pause, left).timeAmount) {
            poll(fd, until: deadline, pause: min(pause * 2, .milliseconds(10)), on: loop, promise)
        }
    }

    private static func abandon(_ fd: Int32) -> Outcome {
        close(fd)
        return .timedOut
    }

    /// The outcome of a handshake the socket reports finished.
    private static func judge(_ fd: Int32) -> Outcome {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
            let code = errno
            close(fd)
            return .failed(IOError(errnoCode: code, reason: "getsockopt"))
        }
        switch error {
        case 0: return .connected(fd)
        case ECONNRESET: return .reset(fd, early: drain(fd))
        default:
            close(fd)
            return .failed(IOError(errnoCode: error, reason: "connect"))
        }
    }

    /// What is left to read on a socket the peer has reset (at most its receive buffer).
    private static func drain(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        for _ in 0..<1_024 {
            let count = Syscall.retryingInterrupts { recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }
}
