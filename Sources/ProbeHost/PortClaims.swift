#if canImport(Glibc)
import Glibc
#endif

/// Ports claimed across every tcpprobe process on the machine: a write lock on one byte per
/// port (the byte at offset PORT) of one shared file. A process's locks go when it ends, so
/// nothing is left to clean up, and a process that dies mid-run frees its ports.
///
/// free-port checks a port is free by binding it, and the subject binds it tens of
/// milliseconds later: shards run side by side (`--shard 1/3` … `3/3` on one machine) could
/// each find the same port free in that moment.
package final class PortClaims: Sendable {
    /// The file every tcpprobe on the machine shares.
    package static let shared = PortClaims(path: "/tmp/tcpprobe-free-ports.lock")

    /// -1 when the file could not be opened: then every claim succeeds, as before claims.
    private let fd: Int32

    package init(path: String) {
        fd = Self.open(path)
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// True when no other process holds `port`, which is now this process's until `releaseAll`.
    package func claim(_ port: Int) -> Bool {
        guard fd >= 0 else { return true }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(port)
        lock.l_len = 1
        return fcntl(fd, F_SETLK, &lock) == 0 || (errno != EACCES && errno != EAGAIN)
    }

    /// Gives every port this process claimed back.
    package func releaseAll() {
        guard fd >= 0 else { return }
        var lock = flock()
        lock.l_type = Int16(F_UNLCK)
        lock.l_whence = Int16(SEEK_SET)
        _ = fcntl(fd, F_SETLK, &lock)
    }

    /// Opens the file for writing (a write lock needs it), creating it writable by every user
    /// so that their runs share it; never re-creates another user's file (a sticky /tmp with
    /// protected_regular refuses O_CREAT on it), and never follows a symbolic link planted there.
    private static func open(_ path: String) -> Int32 {
        for _ in 0..<3 {
            let existing = Glibc.open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            if existing >= 0 || errno != ENOENT { return existing }
            let created = Glibc.open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_CREAT | O_EXCL, 0o666)
            if created >= 0 {
                fchmod(created, 0o666)
                return created
            }
            guard errno == EEXIST else { return -1 }
        }
        return -1
    }
}
