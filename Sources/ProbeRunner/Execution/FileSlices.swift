#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import ProbeHost

/// A regular file sent by `send file`, read a write at a time with pread(2), so a file of
/// gigabytes costs one write's bytes of memory, not the whole file. Closed when released.
final class FileSlices: Sendable {
    let path: String
    /// The file's size when it was opened: the bytes the send promises.
    let count: Int
    private let descriptor: Int32

    /// Takes over `descriptor`, open on the regular file `path` of `count` bytes.
    private init(path: String, descriptor: Int32, count: Int) {
        self.path = path
        self.descriptor = descriptor
        self.count = count
    }

    /// What `send file` sends, from one open of `path`: a regular file over `threshold` bytes
    /// is kept open to be read as it is written; anything else (a small file, a pipe, a /proc
    /// file, which has no size to promise) is read whole now. Opening a named pipe twice
    /// would leave its writer without a reader in between.
    static func payload(path: String, streamingOver threshold: Int) throws -> SendPayload {
        let descriptor = try WholeFile.openForReading(path)
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) > threshold {
            return .file(FileSlices(path: path, descriptor: descriptor, count: Int(status.st_size)))
        }
        defer { close(descriptor) }
        return .bytes(try WholeFile.bytes(from: descriptor, path: path))
    }

    /// The bytes of `range`, read into the buffer that is written; throws when the file ends
    /// early (it shrank during the send) or cannot be read.
    func bytes(in range: Range<Int>) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        var failure: String?
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: range.count) { space in
            var done = 0
            while done < range.count {
                let count = Syscall.retryingInterrupts {
                    pread(descriptor, space.baseAddress! + done, range.count - done, off_t(range.lowerBound + done))
                }
                if count < 0 { failure = String(cString: strerror(errno)); break }
                if count == 0 { failure = "it ended at \(range.lowerBound + done) of \(self.count) bytes (did it shrink?)"; break }
                done += count
            }
            return done
        }
        if let failure { throw WholeFile.Unreadable(path: path, reason: failure) }
        return buffer
    }

    deinit {
        close(descriptor)
    }
}
