#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// A regular file sent by `send file`, read a write at a time with pread(2), so a file of
/// gigabytes costs one write's bytes of memory, not the whole file. Closed when released.
final class FileSlices {
    let path: String
    /// The file's size when it was opened: the bytes the send promises.
    let count: Int
    private let descriptor: Int32

    /// Opens `path` when it is a regular file; nil for anything else (a pipe, a /proc file),
    /// which has no size to promise and is read whole instead.
    init?(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw WholeFile.Unreadable(path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        self.path = path
        self.count = Int(status.st_size)
        self.descriptor = descriptor
    }

    /// The bytes of `range`, read into the buffer that is written; throws when the file ends
    /// early (it shrank during the send) or cannot be read.
    func bytes(in range: Range<Int>) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        var failure: String?
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: range.count) { space in
            var done = 0
            while done < range.count {
                let count = pread(descriptor, space.baseAddress! + done, range.count - done, off_t(range.lowerBound + done))
                if count < 0, errno == EINTR { continue }
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
