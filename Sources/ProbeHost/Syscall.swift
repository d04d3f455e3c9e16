#if canImport(Glibc)
import Glibc
#endif

/// System calls that a signal can interrupt, made again until one is not (EINTR): every read
/// and write loop of tcpprobe goes through here.
package enum Syscall {
    /// Why `writeAll` stopped: the errno of the write that failed (EIO for one that wrote nothing).
    package struct WriteFailure: Error {
        package let code: Int32
        package var description: String { String(cString: strerror(code)) }
    }

    /// `call` made again while it fails with EINTR; its result, with errno as that call left it.
    package static func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result < 0, errno == EINTR { continue }
            return result
        }
    }

    /// Writes all of `bytes` to `descriptor`, which stays open, however short each write is.
    package static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32) throws(WriteFailure) {
        var rest = Array(bytes)[...]
        while !rest.isEmpty {
            let count = retryingInterrupts { rest.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } }
            guard count > 0 else { throw WriteFailure(code: count < 0 ? errno : EIO) }
            rest = rest.dropFirst(count)
        }
    }
}
