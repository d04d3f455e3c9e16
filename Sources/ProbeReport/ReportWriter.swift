import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ProbeHost
import ProbeResults

/// Writes report files (0600) under a temporary name and renames them into place, so an
/// interrupted run never leaves a truncated report behind. Standard output (`-`, `/dev/stdout`,
/// `/dev/fd/1`) and the like are written on their descriptor, and a target that exists and is
/// not a regular file (a pipe, `/dev/null`) is written straight: renaming onto either would
/// replace it, and as root would replace `/dev/stdout` itself.
package enum ReportWriter {
    package struct Target {
        package var format: ReportFormat
        package var path: String
    }

    /// Parses `FORMAT=FILE`.
    package static func target(_ text: String) -> Target? {
        guard let equals = text.firstIndex(of: "="), let format = ReportFormat(rawValue: String(text[..<equals])) else { return nil }
        let path = String(text[text.index(after: equals)...])
        return path.isEmpty ? nil : Target(format: format, path: path)
    }

    package struct RenameError: Error, CustomStringConvertible {
        var path: String
        var code: Int32
        package var description: String { "cannot put the report in place at \(path): \(String(cString: strerror(code)))" }
    }

    package struct WriteError: Error, CustomStringConvertible {
        var path: String
        var code: Int32
        package var description: String { "cannot write the report to \(path): \(String(cString: strerror(code)))" }
    }

    package static func write(_ report: RunReport, to targets: [Target]) throws {
        for target in targets {
            try write(target.format.render(report), to: target.path)
        }
    }

    /// Writes `text` as a report at `path`: in place, or on the descriptor it names.
    package static func write(_ text: String, to path: String) throws {
        if let descriptor = ownDescriptor(path) {
            StandardOutput.flush() // what was printed comes first
            try writeAll(text, to: descriptor, path: path)
            return
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw WriteError(path: path, code: errno) }
            defer { close(descriptor) }
            try writeAll(text, to: descriptor, path: path)
            return
        }
        let temporary = path + ".tmp-\(getpid())"
        try makeFolders(of: path)
        // Reports quote what the peers sent, as captures do: only their owner reads them.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw WriteError(path: path, code: errno) }
        do {
            defer { close(descriptor) }
            try writeAll(text, to: descriptor, path: path)
        } catch {
            unlink(temporary)
            throw error
        }
        guard chmod(temporary, 0o600) == 0, rename(temporary, path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(atPath: temporary)
            throw RenameError(path: path, code: code)
        }
    }

    /// The descriptor `path` names when it names one of this process's own: `-` and
    /// `/dev/stdout` are 1, `/dev/stderr` 2, `/dev/fd/N` and `/proc/self/fd/N` are N.
    private static func ownDescriptor(_ path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// Writes all of `text` to `descriptor`, which stays open.
    /// Makes the folders `path` is in, as `mkdir -p` does; a failure names the report's path
    /// and the reason ("Not a directory", "Permission denied").
    private static func makeFolders(of path: String) throws {
        var folder = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: false).dropLast() {
            folder += (folder.isEmpty && !path.hasPrefix("/") ? "" : "/") + component
            guard !component.isEmpty, component != "." else { continue }
            if mkdir(folder, 0o755) != 0, errno != EEXIST { throw WriteError(path: path, code: errno) }
        }
    }

    private static func writeAll(_ text: String, to descriptor: Int32, path: String) throws {
        do {
            try Syscall.writeAll(text.utf8, to: descriptor)
        } catch {
            throw WriteError(path: path, code: error.code)
        }
    }
}
