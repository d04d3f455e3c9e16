import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A folder only this user may enter, for files that hold whole payloads (captures hold
/// credentials as often as not): made 0700 when missing, and refused when it is a symlink or
/// another user's, since whoever owns it can read, swap or remove what is written there.
package enum PrivateDirectory {
    /// Why a folder cannot hold private files.
    package struct Refused: Error, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "\(path): \(reason)" }
    }

    /// Where private files go unless the user names a folder: `$XDG_RUNTIME_DIR/tcpprobe` (a
    /// per-user tmpfs made 0700 by the login manager), else `/tmp/tcpprobe-UID`. Not `$TMPDIR`:
    /// the C library drops it for a binary given capabilities with setcap, so the folder would
    /// move without a word.
    package static func defaultPath(named name: String, environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return joinPath(runtime, name) }
        return "/tmp/\(name)-\(geteuid())"
    }

    /// Makes `path` (0700, its missing parents as the umask says) or checks the one there: a
    /// real folder, owned by this user. `tightened` also takes away everyone else's access to
    /// one that had it (the default folder; a folder the user named is theirs to open up).
    package static func prepare(_ path: String, tightened: Bool) throws {
        var status = stat()
        if lstat(path, &status) != 0 {
            guard errno == ENOENT else { throw Refused(path: path, reason: String(cString: strerror(errno))) }
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
                try FileManager.default.createDirectory(atPath: String(path[..<slash]), withIntermediateDirectories: true)
            }
            // EEXIST: another tcpprobe made it in the meantime; it is checked below like any other.
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                throw Refused(path: path, reason: errno == ENOSPC ? "the disk is full" : String(cString: strerror(errno)))
            }
            guard lstat(path, &status) == 0 else { throw Refused(path: path, reason: String(cString: strerror(errno))) }
        }
        if status.st_mode & S_IFMT == S_IFLNK {
            throw Refused(path: path, reason: "it is a symbolic link; tcpprobe writes captures only into a real folder of your own")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw Refused(path: path, reason: "it is not a folder") }
        guard status.st_uid == geteuid() else {
            throw Refused(path: path, reason: "it belongs to uid \(status.st_uid), not to you (uid \(geteuid())), who could read or replace what is written there")
        }
        if tightened, status.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw Refused(path: path, reason: "cannot make it private (0700): \(String(cString: strerror(errno)))")
        }
    }
}
