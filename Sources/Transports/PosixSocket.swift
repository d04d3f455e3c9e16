import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Plain POSIX socket calls shared by the BSD and Dispatch transports.
enum PosixSocket {
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        let code: Int32
        var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    /// The addresses of `host:port`, IPv4 and IPv6, as getaddrinfo orders them.
    static func addresses(host: String, port: Int, passive: Bool) throws -> [(family: Int32, address: Data)] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = passive ? AI_PASSIVE : 0
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Failure(operation: "cannot resolve \(host) (\(String(cString: gai_strerror(status))))", code: 0)
        }
        defer { freeaddrinfo(list) }
        var result: [(Int32, Data)] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            result.append((current.pointee.ai_family, Data(bytes: current.pointee.ai_addr, count: Int(current.pointee.ai_addrlen))))
            entry = current.pointee.ai_next
        }
        return result
    }

    /// A blocking connect to the first address of `host:port` that answers.
    static func connect(host: String, port: Int) throws -> Int32 {
        var lastError: Error = Failure(operation: "connect", code: EADDRNOTAVAIL)
        for (family, address) in try addresses(host: host, port: port, passive: false) {
            let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { lastError = Failure(operation: "socket", code: errno); continue }
            let result = address.withUnsafeBytes { Glibc.connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(address.count)) }
            if result == 0 {
                setNoDelay(fd)
                return fd
            }
            lastError = Failure(operation: "connect to \(host):\(port)", code: errno)
            Glibc.close(fd)
        }
        throw lastError
    }

    /// A listening socket on `host:port`, and the port it got.
    static func listen(host: String, port: Int) throws -> (fd: Int32, port: Int) {
        guard let (family, address) = try addresses(host: host, port: port, passive: true).first else {
            throw Failure(operation: "no address for \(host)", code: EADDRNOTAVAIL)
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(operation: "socket", code: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = address.withUnsafeBytes { Glibc.bind(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(address.count)) }
        guard bound == 0, Glibc.listen(fd, 128) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw Failure(operation: "listen on \(host):\(port)", code: code)
        }
        return (fd, localPort(fd))
    }

    static func localPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// SO_LINGER 0: the next close sends RST.
    static func setResetOnClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
}
