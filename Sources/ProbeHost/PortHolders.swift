#if canImport(Glibc)
import Glibc
#endif

/// Who holds a TCP port right now, for the message of a step that could not listen on it
/// ("Address already in use" says only that someone does).
package enum PortHolders {
    /// How many sockets are named one by one before the rest are counted.
    package static let namedAtMost = 5

    /// "port P now:" and a line a socket, such as `LISTEN 127.0.0.1:8080, pid 812 (nginx: master
    /// process)`, TIME-WAIT sockets counted in one line; nil when no socket has the port (or the
    /// kernel's socket table cannot be read).
    package static func describe(port: Int) -> String? {
        var sockets: [SocketTable.Entry] = []
        guard SocketTable.forEach({ if $0.localPort == port { sockets.append($0) } }), !sockets.isEmpty else { return nil }
        let timeWait = SocketTable.Entry.timeWaitState
        let timeWaits = sockets.filter { $0.state == timeWait }.count
        let held = sockets.filter { $0.state != timeWait }
        let owners = self.owners(of: Set(held.map(\.inode).filter { $0 != 0 }))
        var lines = ["port \(port) now:"]
        for socket in held.prefix(namedAtMost) {
            var line = "  \(socket.stateName) \(socket.local)"
            if socket.remotePort != 0 { line += " to \(socket.remote)" }
            let pids = owners[socket.inode] ?? []
            line += pids.isEmpty ? ", owner not visible" : ", " + pids.map(owner).joined(separator: ", ")
            lines.append(line)
        }
        if held.count > namedAtMost { lines.append("  and \(held.count - namedAtMost) more") }
        if timeWaits > 0 { lines.append("  \(timeWaits) in TIME-WAIT, which only a bind without SO_REUSEADDR is refused for") }
        return lines.joined(separator: "\n")
    }

    /// The processes whose descriptors name each socket inode, found under /proc/PID/fd
    /// (other users' processes are visible to root only).
    package static func owners(of inodes: Set<UInt32>) -> [UInt32: [Int32]] {
        guard !inodes.isEmpty, let proc = opendir("/proc") else { return [:] }
        defer { closedir(proc) }
        var owners: [UInt32: [Int32]] = [:]
        var link = [CChar](repeating: 0, count: 64)
        while let process = readdir(proc) {
            let name = withUnsafeBytes(of: process.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard let pid = Int32(name), let descriptors = opendir("/proc/\(pid)/fd") else { continue }
            defer { closedir(descriptors) }
            while let descriptor = readdir(descriptors) {
                let fd = withUnsafeBytes(of: descriptor.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                let length = readlink("/proc/\(pid)/fd/\(fd)", &link, link.count - 1)
                guard length > 9 else { continue }
                let target = String(decoding: link.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                guard target.hasPrefix("socket:["), let inode = UInt32(target.dropFirst(8).dropLast()),
                      inodes.contains(inode), owners[inode]?.contains(pid) != true else { continue }
                owners[inode, default: []].append(pid)
            }
        }
        return owners
    }

    /// `pid 812 (nginx: master process)`, or `pid 90 (tcpprobe itself)`.
    package static func owner(_ pid: Int32) -> String {
        "pid \(pid) (\(pid == getpid() ? "tcpprobe itself" : commandLine(of: pid)))"
    }

    /// The command line of `pid`, spaces for its NULs, at most `limit` characters ("?" when
    /// it cannot be read).
    package static func commandLine(of pid: Int32, atMost limit: Int = 80) -> String {
        guard let bytes = try? WholeFile.bytes(atPath: "/proc/\(pid)/cmdline"), !bytes.isEmpty else { return "?" }
        var text = String(decoding: bytes.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        while text.hasSuffix(" ") { text.removeLast() }
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}
